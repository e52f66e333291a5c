# SPDX-License-Identifier: Apache-2.0
# Kernel matrix: the gate's verdict and the engine path on Debian 6.12
# (trixie), 7.2 (sid) and 7.3
# (trixie-backports, af_alg_restrict 1 = default, 0 and 2) in the x86_64
# guest, each with the simulated driver built for it in a throw-away chroot.
# The 6.1 kernel keeps the full suite (guest.cmake); these rows run the
# reduced set: gate + doctor, eip93-diff (600 cases), a TLS 1.3 transfer;
# the offload rows bind the default composition (the engine's AES-CTR alone,
# ctr(aes-eip93)) and then, in the same boot, the kernel's AES-GCM over it
# (kernel-algorithm = ...ghash-generic).  Every row then loads cryptodev.ko
# (built for its kernel from the pinned source, test/cryptodev/build-module.sh)
# and runs the same checks on the /dev/crypto backend in the same boot: on 7.2
# and 7.3, where AF_ALG refuses the engine, that is the offload row; there
# AES-CTR and AES-CBC (eip93-skc-diff) reach the engine too.
# Label "kernels": ctest -L kernels.  Cache: EIP93_KERNELS_CACHE (default
# ~/.cache/eip93/guest, shared with the 6.1 kernel; never cleaned by us).
# test/kernels/update-doc.sh BUILD_DIR writes docs/kernels.md's table from
# the rows the guests printed.
set(EIP93_KERNELS_CACHE "$ENV{HOME}/.cache/eip93/guest" CACHE PATH
    "Where the matrix kernels and their build chroots are cached")
set(KERNELS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(KERNELS_WORK ${CMAKE_CURRENT_BINARY_DIR}/guest-work/kernels)
set(KERNELS_ADD
  --add $<TARGET_FILE:eip93>:/opt/eip93/release/eip93.so
  --add $<TARGET_FILE:eip93_hooks>:/opt/eip93/hooks/eip93.so
  --add ${OPENSSL_CLI}:/usr/bin/openssl
  --add $<TARGET_FILE:eip93-gate-check>:/usr/bin/eip93-gate-check
  --add $<TARGET_FILE:eip93-doctor>:/usr/bin/eip93-doctor
  --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff
  --add $<TARGET_FILE:eip93-skc-diff>:/usr/bin/eip93-skc-diff
  --add ${PROJECT_SOURCE_DIR}/test/guest/lib.sh:/opt/eip93/guest-lib.sh
  --add-dir ${PROJECT_SOURCE_DIR}/test/data:/opt/eip93/data)

foreach(tag 6.12 7.2 7.3)
  # Download + unpack + chroot (cold: minutes; warm: seconds, offline after
  # the 12-hour index refresh).
  add_test(NAME kernels_prepare_${tag}
    COMMAND ${PROJECT_SOURCE_DIR}/test/rig/prepare.sh --kernel ${tag} ${EIP93_KERNELS_CACHE})
  set_tests_properties(kernels_prepare_${tag} PROPERTIES LABELS "guest;kernels"
    FIXTURES_SETUP kernels_${tag} TIMEOUT 1500 RESOURCE_LOCK kernels_apt)
endforeach()

# kernels_row(<name> <tag> <restrict or -> <expectation> [<also composition>])
function(kernels_row name tag restrict expect)
  set(also -)
  if(ARGC GREATER 4)
    set(also "${ARGV4}")
  endif()
  add_test(NAME guest_kernel_${name}
    COMMAND ${CMAKE_COMMAND} -E env EIP93_GUEST_CACHE=${EIP93_KERNELS_CACHE}
            EIP93_KERNEL_WORK=${KERNELS_WORK} EIP93_KERNEL_ALSO=${also}
            EIP93_KERNEL_CDEV_SRC=${EIP93_CRYPTODEV_SRC}
            ${KERNELS_DIR}/run.sh ${tag} ${restrict} ${expect} -- ${KERNELS_ADD})
  set_tests_properties(guest_kernel_${name} PROPERTIES LABELS "guest;kernels"
    FIXTURES_REQUIRED kernels_${tag} TIMEOUT 600)
endfunction()

# 6.1: the suite's own kernel (guest_kernel fixture), for the table's first row.
kernels_row(6_1 6.1 - "offload:ctr(aes-eip93)" "gcm_base(ctr(aes-eip93),ghash-generic)")
set_tests_properties(guest_kernel_6_1 PROPERTIES FIXTURES_REQUIRED guest_kernel)
kernels_row(6_12 6.12 - "offload:ctr(aes-eip93)" "gcm_base(ctr(aes-eip93),ghash-generic)")
kernels_row(7_2 7.2 - "refuse:AF_ALG refuses hardware drivers from Linux 7.2")
kernels_row(7_3_r1 7.3 1 "refuse:af_alg_restrict = 1")
kernels_row(7_3_r0 7.3 0 "refuse:AF_ALG refuses hardware drivers from Linux 7.2")
kernels_row(7_3_r2 7.3 2 "refuse:af_alg_restrict = 2")

# Kernel TLS beside the engine (test/kernels/ktls.sh) in the 6.1
# and 7.3 boots above (no boot of its own): TLS 1.2 and 1.3 with Debian's
# OpenSSL and Options = KTLS; the driver moves on 6.1, not on 7.3.
set_tests_properties(guest_kernel_6_1 guest_kernel_7_3_r1 PROPERTIES
  ENVIRONMENT EIP93_KERNEL_KTLS=1)
set_property(TEST guest_kernel_6_1 guest_kernel_7_3_r1 APPEND PROPERTY LABELS ktls)
