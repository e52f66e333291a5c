// SPDX-License-Identifier: GPL-2.0
/*
 * eip93_nohwcap - hide the ARMv8 Crypto Extensions from new processes.
 * TEST-ONLY: part of the eip93 provider's arm64 QEMU test rig, never shipped.
 *
 * QEMU's arm64 CPU models all implement the Crypto Extensions, so AT_HWCAP
 * always advertises AES; the AN7581's Cortex-A53 cores do not have them.
 * The kernel's hwcap word is not reachable from a module (elf_hwcap is
 * static in arch/arm64/kernel/cpufeature.c; only cpu_have_feature() is
 * exported) and no command-line override hides AES on 6.1.  The kernel
 * fills a new process's AT_HWCAP at exec from the return value of
 * cpu_get_elf_hwcap() (ELF_HWCAP in arch/arm64/include/asm/hwcap.h, called
 * from fs/binfmt_elf.c).  This module puts a kretprobe on that function and
 * clears the bits in "mask" from its return value, so every program started
 * while the module is loaded sees a CPU without those instructions, exactly
 * as on the target (getauxval(AT_HWCAP), glibc, OpenSSL's CPU detection).
 * Unloading the module restores the CPU's real hwcaps for later execs.
 *
 * What it does not change: /proc/cpuinfo "Features" (read from the kernel's
 * own bitmap), the kernel's own use of the instructions (its aes-ce drivers),
 * compat (32-bit) processes, and processes started before it was loaded.
 *
 * Parameters (/sys/module/eip93_nohwcap/parameters/):
 *   mask   AT_HWCAP bits to clear (default 0x78: AES, PMULL, SHA1, SHA2,
 *          the Cortex-A53's optional Crypto Extensions); read-only once loaded
 *   hits   number of calls whose result was masked (one per exec)
 */

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>

static unsigned long nohwcap_mask = 0x78; /* HWCAP_AES|PMULL|SHA1|SHA2 */
module_param_named(mask, nohwcap_mask, ulong, 0444);
MODULE_PARM_DESC(mask, "AT_HWCAP bits hidden from new processes");

static atomic64_t nohwcap_hits = ATOMIC64_INIT(0);

static int nohwcap_hits_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%lld\n", (long long)atomic64_read(&nohwcap_hits));
}

static const struct kernel_param_ops nohwcap_hits_ops = {
	.get = nohwcap_hits_get,
};
module_param_cb(hits, &nohwcap_hits_ops, NULL, 0444);
MODULE_PARM_DESC(hits, "cpu_get_elf_hwcap() results masked so far");

static int nohwcap_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	regs_set_return_value(regs, regs_return_value(regs) & ~nohwcap_mask);
	atomic64_inc(&nohwcap_hits);
	return 0;
}

static struct kretprobe nohwcap_probe = {
	.kp.symbol_name = "cpu_get_elf_hwcap",
	.handler = nohwcap_ret,
	.maxactive = 64,
};

static int __init nohwcap_init(void)
{
	int err = register_kretprobe(&nohwcap_probe);

	if (err)
		pr_err("eip93_nohwcap: kretprobe on cpu_get_elf_hwcap failed: %d\n", err);
	else
		pr_info("eip93_nohwcap: new processes see AT_HWCAP without 0x%lx\n", nohwcap_mask);
	return err;
}

static void __exit nohwcap_exit(void)
{
	unregister_kretprobe(&nohwcap_probe);
}

module_init(nohwcap_init);
module_exit(nohwcap_exit);

MODULE_DESCRIPTION("Test-only: hide the Crypto Extensions from AT_HWCAP (eip93 test rig)");
MODULE_LICENSE("GPL");
