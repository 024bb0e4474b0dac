"""maul_fuzz_target: one libFuzzer harness, and its corpus replayed as a test.

Under --config=fuzz (clang, libFuzzer, ASan + UBSan) `name` is a libFuzzer
binary: bazel build --config=fuzz //fuzz:NAME, then run
bazel-bin/fuzz/NAME fuzz/corpus/NAME -max_total_time=60.
In every configuration `name + "_replay"` is a cc_test that feeds each file
of fuzz/corpus/NAME to the harness through a standalone main (gcc, arm64
under qemu, asan included).
"""

load("//platforms:copts.bzl", "MAUL_C_COPTS")

def maul_fuzz_target(name, srcs, deps = []):
    corpus = native.glob(["corpus/" + name + "/*"])
    native.cc_binary(
        name = name,
        srcs = srcs + select({
            "//platforms:libfuzzer": [],
            "//conditions:default": ["standalone_main.c"],
        }),
        copts = MAUL_C_COPTS,
        linkopts = select({
            "//platforms:libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        deps = deps,
    )
    native.cc_test(
        name = name + "_replay",
        size = "small",
        srcs = srcs + ["standalone_main.c"],
        copts = MAUL_C_COPTS,
        args = ["$(location %s)" % f for f in corpus],
        data = corpus,
        deps = deps,
        tags = ["fuzz-replay"],
    )
