"""cc_toolchain_config for a Debian cross gcc (aarch64-linux-gnu-gcc), after the shared toolchain probe.

Works with Bazel 4.2.3 (Debian bazel-bootstrap) and newer.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.linkstamp_compile,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

def _impl(ctx):
    p = ctx.attr.tool_prefix
    tool_paths = [
        tool_path(name = "gcc", path = p + "gcc"),
        tool_path(name = "cpp", path = p + "cpp"),
        tool_path(name = "ld", path = p + "ld"),
        tool_path(name = "ar", path = p + "ar"),
        tool_path(name = "nm", path = p + "nm"),
        tool_path(name = "objcopy", path = p + "objcopy"),
        tool_path(name = "objdump", path = p + "objdump"),
        tool_path(name = "strip", path = p + "strip"),
        tool_path(name = "gcov", path = p + "gcov"),
        tool_path(name = "dwp", path = p + "dwp"),
    ]

    features = [
        feature(name = "dbg"),
        feature(name = "opt"),
        feature(name = "fastbuild"),
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = [
                        "-no-canonical-prefixes",
                        "-fno-canonical-system-headers",
                        "-Wall",
                        "-fno-omit-frame-pointer",
                    ] + ctx.attr.extra_compile_flags)],
                ),
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = ["-g"])],
                    with_features = [with_feature_set(features = ["dbg"])],
                ),
                flag_set(
                    actions = _COMPILE_ACTIONS,
                    flag_groups = [flag_group(flags = [
                        "-g0",
                        "-O2",
                        "-DNDEBUG",
                        "-ffunction-sections",
                        "-fdata-sections",
                    ])],
                    with_features = [with_feature_set(features = ["opt"])],
                ),
                flag_set(
                    actions = [ACTION_NAMES.cpp_compile, ACTION_NAMES.cpp_header_parsing],
                    flag_groups = [flag_group(flags = ["-std=c++17"])],
                ),
            ],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [
                flag_set(
                    actions = _LINK_ACTIONS,
                    flag_groups = [flag_group(flags = [
                        "-no-canonical-prefixes",
                        "-pass-exit-codes",
                    ] + ctx.attr.extra_link_flags)],
                ),
            ],
        ),
        # Appended at the very end of the link line (after all objects/libs).
        feature(
            name = "default_link_libs",
            enabled = True,
            flag_sets = [
                flag_set(
                    actions = _LINK_ACTIONS,
                    flag_groups = [flag_group(flags = ["-lstdc++", "-lm"])],
                ),
            ],
        ),
        feature(name = "supports_pic", enabled = True),
    ]

    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        features = features,
        cxx_builtin_include_directories = ctx.attr.builtin_include_directories,
        toolchain_identifier = ctx.attr.toolchain_identifier,
        host_system_name = "x86_64-unknown-linux-gnu",
        target_system_name = ctx.attr.target_system_name,
        target_cpu = ctx.attr.target_cpu,
        target_libc = "glibc",
        compiler = "gcc",
        abi_version = "gcc",
        abi_libc_version = "glibc",
        tool_paths = tool_paths,
    )

gcc_cross_toolchain_config = rule(
    implementation = _impl,
    attrs = {
        "toolchain_identifier": attr.string(mandatory = True),
        "tool_prefix": attr.string(mandatory = True),
        "target_cpu": attr.string(mandatory = True),
        "target_system_name": attr.string(mandatory = True),
        "builtin_include_directories": attr.string_list(),
        "extra_compile_flags": attr.string_list(),
        "extra_link_flags": attr.string_list(),
    },
    provides = [CcToolchainConfigInfo],
)
