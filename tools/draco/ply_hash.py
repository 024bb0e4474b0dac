"""Hashes the vertex and face bytes of a binary PLY draco_decoder wrote (see
make_ref.sh for the line it prints)."""
import struct
import sys


def fnv(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    path, name, settings = sys.argv[1], sys.argv[2], sys.argv[3]
    b = open(path, 'rb').read()
    h = b.index(b'end_header\n') + 11
    lines = b[:h].decode().split('\n')
    nv = nf = 0
    props = []
    cur = None
    for line in lines:
        t = line.split()
        if not t:
            continue
        if t[0] == 'element':
            cur = t[1]
            if cur == 'vertex':
                nv = int(t[2])
            if cur == 'face':
                nf = int(t[2])
        if t[0] == 'property' and cur == 'vertex':
            props.append(t[2])
    if any(p not in ('x', 'y', 'z', 'nx', 'ny', 'nz') for p in props):
        raise SystemExit('unexpected vertex property in ' + path)
    vs = 4 * len(props)
    vb = b[h:h + nv * vs]
    fb = b[h + nv * vs:]
    tex = 'texcoord' in b[:h].decode()
    out = bytearray()
    o = 0
    for _ in range(nf):
        c = fb[o]
        o += 1
        out += fb[o:o + 4 * c]
        o += 4 * c
        if tex:
            c = fb[o]
            o += 1
            out += fb[o:o + 4 * c]
            o += 4 * c
    print('%s %s %d %d %016x %016x' % (name, settings, nv, nf, fnv(vb), fnv(bytes(out))))


main()
