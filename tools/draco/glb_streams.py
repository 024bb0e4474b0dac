"""Writes the KHR_draco_mesh_compression views of one GLB as
<prefix>_m<mesh>_p<primitive>.drc into the output folder and prints their
names (make_attribute_ref.sh).

usage: glb_streams.py FILE.glb OUTPUT_FOLDER PREFIX"""
import json
import os
import struct
import sys


def main():
    path, out, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
    b = open(path, 'rb').read()
    jl = struct.unpack_from('<I', b, 12)[0]
    doc = json.loads(b[20:20 + jl])
    binary = b[20 + jl + 8:]
    for mi, mesh in enumerate(doc['meshes']):
        for pi, prim in enumerate(mesh['primitives']):
            ext = prim.get('extensions', {}).get('KHR_draco_mesh_compression')
            if not ext:
                continue
            view = doc['bufferViews'][ext['bufferView']]
            start = view.get('byteOffset', 0)
            name = '%s_m%d_p%d' % (prefix, mi, pi)
            open(os.path.join(out, name + '.drc'), 'wb').write(binary[start:start + view['byteLength']])
            print(name)


main()
