# SPDX-License-Identifier: Apache-2.0
# Sandboxes (issue 13): a process under a seccomp filter that kills on
# socket() never gets an AF_ALG syscall from eip93 (software reason
# "seccomp"); x86_64 guest, hooks build, simulated driver.  Label "sandbox".
add_executable(eip93-seccomp-check ${CMAKE_CURRENT_LIST_DIR}/seccomp_check.c)
eip93_target_flags(eip93-seccomp-check)
target_link_libraries(eip93-seccomp-check PRIVATE PkgConfig::LIBCRYPTO)
eip93_guest_test(sandbox_seccomp ${CMAKE_CURRENT_LIST_DIR}/seccomp.sh
  --add $<TARGET_FILE:eip93-seccomp-check>:/usr/bin/eip93-seccomp-check --timeout 120)
set_tests_properties(guest_sandbox_seccomp PROPERTIES LABELS "guest;sandbox")
