"""conformance_suite: one test per golden suite."""

load("//platforms:copts.bzl", "MAUL_C_COPTS")

def conformance_suite(name):
    """A test that runs suite `name` and compares it with golden/<name>.txt."""
    native.cc_test(
        name = name + "_conformance_test",
        # medium: under qemu-aarch64 on a loaded machine the larger suites
        # (deform: 5,000 skinned vertices per method) pass a minute.
        size = "medium",
        srcs = ["//conformance:framework/suite_test_main.c"],
        copts = MAUL_C_COPTS,
        args = [name],
        deps = ["//conformance:suites"],
        tags = ["conformance"],
    )
