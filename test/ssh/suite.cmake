# SPDX-License-Identifier: Apache-2.0
# OpenSSH: Debian's sshd and ssh with eip93 preferred through
# openssl.cnf (max-size = 36864 so full-size SSH packets reach the engine),
# both aes*-gcm@openssh.com ciphers, the four pairings, 50 logins; then
# aes128-ctr and aes256-ctr (AES-CTR), sshd and ssh each optimized alone, and
# 5 logins each to the min-size = 16 sshd; x86_64 guest, hooks build,
# simulated driver.  scripts/deps.d/ssh.txt installs the packages.  Label
# "ssh".  EIP93_SSH_SIZE: bytes each way for AES-GCM (default 32 MiB; under
# TCG a 32 MiB run of all eight transfers takes tens of minutes, see
# docs/testing.md); EIP93_SSH_CTR_SIZE: for AES-CTR (default 8 MiB).
set(EIP93_SSH_SIZE 33554432 CACHE STRING "Bytes each way in the OpenSSH guest test")
set(EIP93_SSH_CTR_SIZE 8388608 CACHE STRING "Bytes each way in the OpenSSH guest test's AES-CTR transfers")
eip93_guest_programs(SSH sshd:/usr/sbin/sshd ssh:/usr/bin/ssh ssh-keygen:/usr/bin/ssh-keygen)
if(SSH_MISSING)
  message(WARNING "ssh suite not registered: ${SSH_MISSING} not found "
                  "(scripts/deps.sh installs scripts/deps.d/ssh.txt)")
else()
  # eip93-counters.so (test/CMakeLists.txt): the optimized ssh client's counters at exit.
  eip93_guest_test(ssh ${CMAKE_CURRENT_LIST_DIR}/ssh.sh ${SSH_ADD} --mem 1024 --timeout 3000
    --add $<TARGET_FILE:eip93-counters>:/usr/lib/eip93-counters.so
    --env SSH_SIZE=${EIP93_SSH_SIZE} --env SSH_CTR_SIZE=${EIP93_SSH_CTR_SIZE})
  set_tests_properties(guest_ssh PROPERTIES LABELS "guest;ssh" TIMEOUT 3060)
endif()

# OpenSSH's call shape byte for byte (test/ssh/ssh_diff.c), real AF_ALG path,
# with and without injected engine failures.
add_executable(eip93-ssh-diff ${CMAKE_CURRENT_LIST_DIR}/ssh_diff.c)
eip93_target_flags(eip93-ssh-diff)
target_link_libraries(eip93-ssh-diff PRIVATE PkgConfig::LIBCRYPTO)
eip93_guest_test(ssh_diff ${CMAKE_CURRENT_LIST_DIR}/diff.sh
  --add $<TARGET_FILE:eip93-ssh-diff>:/usr/bin/eip93-ssh-diff --timeout 300)
set_tests_properties(guest_ssh_diff PROPERTIES LABELS "guest;ssh")
