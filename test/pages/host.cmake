# SPDX-License-Identifier: Apache-2.0
# Faults where the engine really reads and writes (page boundaries of the
# source, the destination and the kernel's send buffer; blocks skipped or
# left unencrypted), on the host through both backends' stand-ins: no wrong
# output, no plaintext or stale block released (test/pages/pages.sh).
if(NOT EIP93_SANITIZE AND TARGET eip93-cdev-shim AND TARGET eip93_hooks)
  add_executable(eip93-pages-check ${CMAKE_CURRENT_LIST_DIR}/pages_check.c)
  eip93_target_flags(eip93-pages-check)
  target_link_libraries(eip93-pages-check PRIVATE PkgConfig::LIBCRYPTO)
  add_test(NAME pages_integrity COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pages.sh
    $<TARGET_FILE:eip93-pages-check> $<TARGET_FILE:eip93-cdev-shim> ${CDEV_KGCM_CNF})
  set_tests_properties(pages_integrity PROPERTIES LABELS "host;integrity" TIMEOUT 300
    ENVIRONMENT "${CDEV_DIFF_ENV}")
endif()
