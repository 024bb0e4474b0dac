"""Writes the KHR_draco_mesh_compression views of the shared glTF models as
gltf_<model>_m<mesh>_p<primitive>.drc into the output folder and prints their
names (make_ref.sh)."""
import json
import os
import struct
import sys

MODELS = [
    'khronos/CesiumMan/glTF-Draco/CesiumMan.gltf',
    'khronos/RiggedSimple/glTF-Draco/RiggedSimple.gltf',
    'khronos/MorphPrimitivesTest/glTF-Draco/MorphPrimitivesTest.gltf',
    'draco-testdata/Box/glTF_Binary/Box_Draco.glb',
    'gltf-transform/DracoSparseMesh.gltf',
]


def main():
    root, out = sys.argv[1], sys.argv[2]
    for rel in MODELS:
        path = os.path.join(root, rel)
        folder = os.path.dirname(path)
        if path.endswith('.glb'):
            b = open(path, 'rb').read()
            jl = struct.unpack_from('<I', b, 12)[0]
            doc = json.loads(b[20:20 + jl])
            bins = [b[20 + jl + 8:]]
        else:
            doc = json.load(open(path))
            bins = [open(os.path.join(folder, bf['uri']), 'rb').read() for bf in doc['buffers']]
        for mi, mesh in enumerate(doc['meshes']):
            for pi, prim in enumerate(mesh['primitives']):
                ext = prim.get('extensions', {}).get('KHR_draco_mesh_compression')
                if not ext:
                    continue
                view = doc['bufferViews'][ext['bufferView']]
                start = view.get('byteOffset', 0)
                data = bins[view['buffer']][start:start + view['byteLength']]
                name = 'gltf_%s_m%d_p%d' % (os.path.basename(rel).split('.')[0], mi, pi)
                open(os.path.join(out, name + '.drc'), 'wb').write(data)
                print(name)


main()
