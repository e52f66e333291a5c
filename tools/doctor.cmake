# SPDX-License-Identifier: Apache-2.0
# eip93-doctor (tools/eip93-doctor.c): prints every fact of the provider's
# gate, its verdict and what to do; `eip93-doctor calibrate` (tools/calibrate.c)
# measures the engine against software and writes the calibration.  It
# compiles the provider's detect/ sources, the engine rows with their roads'
# words (engine/engine.c, afalg, cryptodev) and the SoC rows (provider/soc.c)
# in (the same code reads the same facts).  Included by the root
# CMakeLists.txt (installed into bin/) and, until then, by test/arm64/suite.cmake.
if(TARGET eip93-doctor)
  return()
endif()
add_executable(eip93-doctor ${PROJECT_SOURCE_DIR}/tools/eip93-doctor.c
  ${PROJECT_SOURCE_DIR}/tools/doctor_out.c ${PROJECT_SOURCE_DIR}/tools/doctor_kernel.c
  ${PROJECT_SOURCE_DIR}/tools/doctor_report.c ${PROJECT_SOURCE_DIR}/tools/rows.c
  ${PROJECT_SOURCE_DIR}/tools/calibrate.c ${PROJECT_SOURCE_DIR}/tools/calib_report.c
  ${PROJECT_SOURCE_DIR}/tools/calib_opts.c ${PROJECT_SOURCE_DIR}/tools/advice.c
  ${PROJECT_SOURCE_DIR}/tools/advice_tls12.c
  ${PROJECT_SOURCE_DIR}/tools/calib_modes.c ${PROJECT_SOURCE_DIR}/tools/calib_time.c
  ${PROJECT_SOURCE_DIR}/tools/ktls.c ${PROJECT_SOURCE_DIR}/tools/backend_advice.c
  ${PROJECT_SOURCE_DIR}/detect/dt.c ${PROJECT_SOURCE_DIR}/detect/cpu.c
  ${PROJECT_SOURCE_DIR}/detect/fips.c ${PROJECT_SOURCE_DIR}/detect/kprobe.c
  ${PROJECT_SOURCE_DIR}/detect/sandbox.c
  ${EIP93_ENGINE_SOURCES}
  ${PROJECT_SOURCE_DIR}/provider/gate.c ${PROJECT_SOURCE_DIR}/provider/gate_board.c ${PROJECT_SOURCE_DIR}/provider/config.c
  ${PROJECT_SOURCE_DIR}/provider/soc.c ${PROJECT_SOURCE_DIR}/provider/calib.c
  ${PROJECT_SOURCE_DIR}/provider/calib_decide.c)
eip93_target_flags(eip93-doctor)
target_compile_definitions(eip93-doctor PRIVATE EIP93_VERSION="${PROJECT_VERSION}")
target_link_libraries(eip93-doctor PRIVATE PkgConfig::LIBCRYPTO)
include(GNUInstallDirs)
install(TARGETS eip93-doctor RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Host unit test of the recommendation, the traffic shapes and the kTLS
# parsing and the backend advice (pure code: tools/advice.c, tools/ktls.c,
# tools/backend_advice.c).
if(BUILD_TESTING AND NOT CMAKE_CROSSCOMPILING)
  add_executable(test_doctor_advice ${PROJECT_SOURCE_DIR}/test/unit/test_doctor_advice.c
    ${PROJECT_SOURCE_DIR}/tools/advice.c ${PROJECT_SOURCE_DIR}/tools/advice_tls12.c
    ${PROJECT_SOURCE_DIR}/tools/ktls.c
    ${PROJECT_SOURCE_DIR}/tools/backend_advice.c ${PROJECT_SOURCE_DIR}/provider/calib_decide.c
    ${PROJECT_SOURCE_DIR}/provider/soc.c)
  eip93_target_flags(test_doctor_advice)
  # Pure code, but engine/engine.h includes openssl/types.h: the configured libcrypto's.
  target_include_directories(test_doctor_advice PRIVATE
    $<TARGET_PROPERTY:PkgConfig::LIBCRYPTO,INTERFACE_INCLUDE_DIRECTORIES>)
  add_test(NAME test_doctor_advice COMMAND test_doctor_advice)
  set_tests_properties(test_doctor_advice PROPERTIES LABELS "host;unit")
endif()

# The doctor end to end on the host (test/doctor/advice.sh): the reference
# row in the calibration, advice only from it, the printed openssl.cnf
# settings applied to a real s_server, Options = KTLS.  Not in the sanitized
# build: the system `openssl` binary cannot load a sanitized module.
if(BUILD_TESTING AND NOT CMAKE_CROSSCOMPILING AND NOT EIP93_SANITIZE)
  find_program(OPENSSL_CLI openssl REQUIRED)
  add_test(NAME doctor_advice COMMAND ${PROJECT_SOURCE_DIR}/test/doctor/advice.sh
    $<TARGET_FILE:eip93-doctor> ${OPENSSL_CLI} ${PROJECT_BINARY_DIR}/test/hooks
    ${PROJECT_SOURCE_DIR}/test/data)
  set_tests_properties(doctor_advice PROPERTIES LABELS "host;calib" TIMEOUT 120)
endif()
