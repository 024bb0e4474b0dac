"""Maul's compiler flags, in one place.

Determinism (docs/determinism.md, rule 1): every target compiles with
-std=c11 (C) and -ffp-contract=off, and never with a fast-math option; gcc
would otherwise fuse a*b+c into FMA on arm64 and with -mfma on x86-64, and
clang does so even in ISO mode. Backend instruction flags appear only on the
backend's own library target (MAUL_AVX2_COPTS in lib/anim/src/simd).
"""

_DETERMINISM = ["-ffp-contract=off", "-fno-fast-math", "-fno-associative-math", "-fno-reciprocal-math"]

_WARNINGS = ["-Wall", "-Wextra", "-Werror", "-Wshadow", "-Wstrict-prototypes", "-Wno-unused-parameter"]

# The project's own C code.
MAUL_C_COPTS = ["-std=c11"] + _DETERMINISM + _WARNINGS

# The project's own C++ code (googletest tests, conformance drivers).
MAUL_CC_COPTS = ["-std=c++17"] + _DETERMINISM + ["-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter"]

# Only on the AVX2 backend's own target.
MAUL_AVX2_COPTS = ["-mavx2", "-mfma"]

# AdvSIMD is part of the armv8-a baseline; nothing to add.
MAUL_NEON_COPTS = []
