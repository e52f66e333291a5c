# SPDX-License-Identifier: Apache-2.0
# Integrity of every engine message (docs/contract.md "Integrity"), in the
# x86_64 guest:
# the simulated driver starts faulting the keystream after the keys passed
# their check (a flipped bit in the first, the last, a fixed middle or a
# random middle block; output never written; a stale page edge; a flipped
# bit in the last 16 bytes; a flipped bit in the request's first block,
# which the tag mask under gcm_base must catch), under both engine
# compositions (CTR-only and gcm_base with the sampled tag check); every
# result is compared with the default provider, and the differential test
# runs under a fault.  Script: test/integrity/integrity.sh.
add_executable(eip93-integrity-check ${CMAKE_CURRENT_LIST_DIR}/integrity_check.c)
eip93_target_flags(eip93-integrity-check)
target_link_libraries(eip93-integrity-check PRIVATE PkgConfig::LIBCRYPTO)
eip93_guest_test(integrity ${CMAKE_CURRENT_LIST_DIR}/integrity.sh
  --add $<TARGET_FILE:eip93-integrity-check>:/usr/bin/eip93-integrity-check
  --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff --timeout 500)
set_tests_properties(guest_integrity PROPERTIES LABELS "guest;integrity" TIMEOUT 560)
