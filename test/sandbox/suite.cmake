# SPDX-License-Identifier: Apache-2.0
# Sandboxes: a process under a seccomp filter that kills on
# socket() never gets an AF_ALG syscall from eip93 (software reason
# "seccomp"); x86_64 guest, hooks build, simulated driver.  Label "sandbox".
# The arm64 guest runs the same program on the release build and the real
# gate: arm64_sandbox_seccomp (test/arm64/suite.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/program.cmake)
eip93_guest_test(sandbox_seccomp ${CMAKE_CURRENT_LIST_DIR}/seccomp.sh
  --add $<TARGET_FILE:eip93-seccomp-check>:/usr/bin/eip93-seccomp-check --timeout 120)
set_tests_properties(guest_sandbox_seccomp PROPERTIES LABELS "guest;sandbox")
