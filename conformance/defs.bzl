"""conformance_suite: one test per golden suite."""

load("//platforms:copts.bzl", "MAUL_C_COPTS")

def conformance_suite(name, size = "small"):
    """A test that runs suite `name` and compares it with golden/<name>.txt.

    size: the test's size ("medium" for a suite qemu needs minutes for)."""
    native.cc_test(
        name = name + "_conformance_test",
        size = size,
        srcs = ["//conformance:framework/suite_test_main.c"],
        copts = MAUL_C_COPTS,
        args = [name],
        deps = ["//conformance:suites"],
        tags = ["conformance"],
    )
