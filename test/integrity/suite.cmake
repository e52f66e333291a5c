# SPDX-License-Identifier: Apache-2.0
# Integrity of every engine message (docs/contract.md "Integrity"), in the
# x86_64 guest:
# the simulated driver starts faulting the keystream after the keys passed
# their check (a flipped bit in the first, the last, a fixed middle or a
# random middle block; output never written; a stale page edge; a flipped
# bit in the last 16 bytes; a flipped bit in the request's first block,
# which the tag mask under gcm_base must catch), under both engine
# compositions (CTR-only and gcm_base with the sampled tag check); then the
# faults where the engine's DMA reads and writes (a byte read or written
# wrong at a boundary between the request's scatterlist entries, a block
# never written) on both roads (AF_ALG and cryptodev.ko's /dev/crypto, built
# as test/cryptodev/suite.cmake builds it) and both compositions, with
# several AAD lengths and buffer offsets; every result is compared with the
# default provider, and the differential test runs under a fault.
# Script: test/integrity/integrity.sh.
add_executable(eip93-integrity-check ${CMAKE_CURRENT_LIST_DIR}/integrity_check.c
  ${CMAKE_CURRENT_LIST_DIR}/integrity_message.c)
eip93_target_flags(eip93-integrity-check)
target_link_libraries(eip93-integrity-check PRIVATE PkgConfig::LIBCRYPTO)
# The same faults against AES-CTR and AES-CBC (alg/skc/): the suite's second table.
add_executable(eip93-skc-integrity-check ${CMAKE_CURRENT_LIST_DIR}/skc_integrity.c)
eip93_target_flags(eip93-skc-integrity-check)
target_link_libraries(eip93-skc-integrity-check PRIVATE PkgConfig::LIBCRYPTO)
# cryptodev.ko: test/cryptodev/suite.cmake's build (fixture guest_cryptodev_kmod, in
# CDEV_KMOD); without it the script's /dev/crypto rows fail, saying so.
set(INTEGRITY_CDEV "")
set(INTEGRITY_FIXTURES "guest_kernel;guest_driver")
if(TEST guest_build_cryptodev)
  set(INTEGRITY_CDEV --module ${CDEV_KMOD}/cryptodev.ko)
  list(APPEND INTEGRITY_FIXTURES guest_cryptodev_kmod)
endif()
eip93_guest_test(integrity ${CMAKE_CURRENT_LIST_DIR}/integrity.sh
  --add $<TARGET_FILE:eip93-integrity-check>:/usr/bin/eip93-integrity-check
  --add $<TARGET_FILE:eip93-skc-integrity-check>:/usr/bin/eip93-skc-integrity-check
  --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff ${INTEGRITY_CDEV} --timeout 600)
set_tests_properties(guest_integrity PROPERTIES LABELS "guest;integrity" TIMEOUT 660
  FIXTURES_REQUIRED "${INTEGRITY_FIXTURES}")
