# SPDX-License-Identifier: Apache-2.0
# Host tests of the /dev/crypto backend (label "host"), included from
# test/CMakeLists.txt whatever EIP93_GUEST_TESTS says.

# alg/cryptodev.c with stand-in syscalls: the link wraps open, openat, ioctl
# and close; the stand-in /dev/crypto computes with OpenSSL in user space.
add_executable(test_cryptodev ${CMAKE_CURRENT_LIST_DIR}/test_cryptodev.c
               ${PROJECT_SOURCE_DIR}/alg/cryptodev.c ${PROJECT_SOURCE_DIR}/alg/afalg.c
               ${PROJECT_SOURCE_DIR}/detect/kprobe.c)
eip93_target_flags(test_cryptodev)
target_include_directories(test_cryptodev PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(test_cryptodev PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)
target_link_options(test_cryptodev PRIVATE -Wl,--wrap=open,--wrap=openat,--wrap=ioctl,--wrap=close)
add_test(NAME test_cryptodev COMMAND test_cryptodev)
set_tests_properties(test_cryptodev PROPERTIES LABELS "host;unit;cryptodev")

# The pinned cryptodev-linux source (never part of this repository): beside
# the checkout as ../shared/third_party, or the workplace's copy.  A test
# build that cannot find it registers a test that fails, saying so: the
# backend's ABI check and guest tests must not vanish quietly.
if(NOT EIP93_CRYPTODEV_SRC)
  foreach(cand "${PROJECT_SOURCE_DIR}/../shared/third_party/cryptodev-linux"
               "/work/shared/third_party/cryptodev-linux")
    if(EXISTS "${cand}/crypto/cryptodev.h")
      get_filename_component(cand "${cand}" ABSOLUTE)
      set(EIP93_CRYPTODEV_SRC "${cand}" CACHE PATH
          "The pinned cryptodev-linux source (for the ABI check and the guest module)")
      break()
    endif()
  endforeach()
endif()
if(EIP93_CRYPTODEV_SRC AND EXISTS "${EIP93_CRYPTODEV_SRC}/crypto/cryptodev.h")
  # alg/cryptodev_abi.h against the module's own header.
  add_executable(cryptodev_abi_check ${CMAKE_CURRENT_LIST_DIR}/abi_check.c)
  eip93_target_flags(cryptodev_abi_check)
  target_include_directories(cryptodev_abi_check PRIVATE ${PROJECT_SOURCE_DIR} ${EIP93_CRYPTODEV_SRC})
  add_test(NAME cryptodev_abi COMMAND cryptodev_abi_check)
  set_tests_properties(cryptodev_abi PROPERTIES LABELS "host;unit;cryptodev")
else()
  add_test(NAME cryptodev_source_missing COMMAND ${CMAKE_COMMAND} -E echo
    "the pinned cryptodev-linux source was not found (../shared/third_party/cryptodev-linux"
    "beside the checkout, or /work/shared/third_party/cryptodev-linux): set EIP93_CRYPTODEV_SRC")
  set_tests_properties(cryptodev_source_missing PROPERTIES LABELS "host;cryptodev" WILL_FAIL ON)
endif()
