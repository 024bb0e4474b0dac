"""Packs a .gltf whose only buffer is an external file into a GLB (the
buffer becomes the BIN chunk, its uri dropped; nothing else changed).

usage: gltf_to_glb.py IN.gltf OUT.glb"""
import json
import os
import struct
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    doc = json.load(open(src))
    if len(doc['buffers']) != 1:
        raise SystemExit('one buffer only: ' + src)
    binary = open(os.path.join(os.path.dirname(src), doc['buffers'][0].pop('uri')), 'rb').read()
    text = json.dumps(doc, separators=(',', ':')).encode()
    text += b' ' * (-len(text) % 4)
    binary += b'\0' * (-len(binary) % 4)
    total = 12 + 8 + len(text) + 8 + len(binary)
    with open(dst, 'wb') as f:
        f.write(struct.pack('<4sII', b'glTF', 2, total))
        f.write(struct.pack('<I4s', len(text), b'JSON') + text)
        f.write(struct.pack('<I4s', len(binary), b'BIN\0') + binary)


main()
