# SPDX-License-Identifier: Apache-2.0
# Host test of the SoC rows (label "host;soc"): each row's gate verdict with
# its device tree root compatible and CPU, on the hooks build's fake engine
# (rows.sh), and AES-GCM messages through each row's compositions (eip93-lengths).  Not in a sanitized build (the doctor loads the hooks module).
if(NOT EIP93_SANITIZE)
  add_test(NAME soc_rows COMMAND ${CMAKE_CURRENT_LIST_DIR}/rows.sh $<TARGET_FILE:eip93-doctor>
    ${EIP93_HOOKS_MODULE_DIR} $<TARGET_FILE:eip93-lengths>)
  set_tests_properties(soc_rows PROPERTIES LABELS "host;soc" TIMEOUT 120)
endif()
