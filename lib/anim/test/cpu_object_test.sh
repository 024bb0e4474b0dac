#!/bin/bash
# maniCheckCpu and the two functions before it must run on any x86-64 CPU:
# the program that links only their target must contain no VEX-encoded
# (AVX) instruction and no ymm/zmm register. The control program, built
# with the AVX2 backend's flags, must contain some, or this check is blind.
set -euo pipefail
probe=$1
control=$2
vex_lines() {
  objdump -d --no-show-raw-insn "$1" | awk -F'\t' '
    NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ {
      split($2, parts, " "); m = parts[1]
      if ((m ~ /^v/ && m != "verr" && m != "verw") || $2 ~ /%[yz]mm/) print
    }'
}
found=$(vex_lines "$probe" | head -5)
if [[ -n "$found" ]]; then
  echo "FAIL: the CPU-check program has AVX instructions:"; echo "$found"; exit 1
fi
control_found=$(vex_lines "$control" | wc -l)
if [[ "$control_found" -eq 0 ]]; then
  echo "FAIL: the AVX2 control program shows no VEX instruction: the check is blind"; exit 1
fi
echo "PASS: no AVX instruction in the CPU-check program; $control_found in the control"
