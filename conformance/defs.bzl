"""conformance_suite: one test per golden suite."""

load("//platforms:copts.bzl", "MAUL_C_COPTS")

def conformance_suite(name, size = "medium"):
    """A test that runs suite `name` and compares it with golden/<name>.txt.

    size: the test's size; medium by default, as under qemu-aarch64 on a
    loaded machine the larger suites (deform: 5,000 skinned vertices per
    method) pass the small size's minute, and "large" for a suite qemu needs
    several minutes for."""
    native.cc_test(
        name = name + "_conformance_test",
        size = size,
        srcs = ["//conformance:framework/suite_test_main.c"],
        copts = MAUL_C_COPTS,
        args = [name],
        deps = ["//conformance:suites"],
        tags = ["conformance"],
    )
