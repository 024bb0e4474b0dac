#!/usr/bin/env python3
"""Converts a clip of ../shared/data/cmu-acl (from the project root) (glTF 2.0: one node per bone,
one animation with a linear T, R and S sampler per bone, one key per sample)
into the raw file tools/cmu/cmu_compress reads (Maul has no glTF importer
yet). Little-endian: u32 'MRAW', u32 bones, u32 samples, f32 rate; per bone
i32 parent (-1 for a root), f32 rest t xyz, r xyzw, s xyz; then per bone,
per path (t, r, s), per sample its 3 or 4 floats.
Usage: gltf_to_raw.py IN.gltf OUT.raw"""
import json, struct, sys, os

def main(src, dst):
    g = json.load(open(src))
    base = os.path.dirname(src)
    buf = open(os.path.join(base, g["buffers"][0]["uri"]), "rb").read()
    def acc(i):
        a = g["accessors"][i]
        v = g["bufferViews"][a["bufferView"]]
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a["type"]]
        off = v.get("byteOffset", 0) + a.get("byteOffset", 0)
        n = a["count"] * width
        return list(struct.unpack_from("<%df" % n, buf, off)), width
    nodes = g["nodes"]
    parent = [-1] * len(nodes)
    for i, nd in enumerate(nodes):
        for c in nd.get("children", []):
            parent[c] = i
    anim = g["animations"][0]
    tracks = {}
    times = None
    for ch in anim["channels"]:
        smp = anim["samplers"][ch["sampler"]]
        vals, width = acc(smp["output"])
        times, _ = acc(smp["input"])
        tracks[(ch["target"]["node"], ch["target"]["path"])] = vals
    n = len(times)
    rate = float(g["asset"].get("extras", {}).get("sample_rate", 0)) or (n - 1) / times[-1]
    out = bytearray(struct.pack("<4sIIf", b"MRAW", len(nodes), n, rate))
    for i, nd in enumerate(nodes):
        t = nd.get("translation", [0, 0, 0]); r = nd.get("rotation", [0, 0, 0, 1]); s = nd.get("scale", [1, 1, 1])
        out += struct.pack("<i10f", parent[i], *(t + r + s))
    for i, nd in enumerate(nodes):
        for path, width, rest in (("translation", 3, nd.get("translation", [0, 0, 0])),
                                  ("rotation", 4, nd.get("rotation", [0, 0, 0, 1])),
                                  ("scale", 3, nd.get("scale", [1, 1, 1]))):
            vals = tracks.get((i, path), rest * n)
            out += struct.pack("<%df" % (n * width), *vals)
    open(dst, "wb").write(out)

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
