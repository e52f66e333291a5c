// SPDX-License-Identifier: Apache-2.0
/*
 * detect/ - facts about the machine, one source each.
 *
 * Nothing here decides anything: functions report what they read, as pure
 * functions over bytes where possible, and return -errno on failure.  The
 * provider layer turns these facts into the gate verdict.
 */
#ifndef EIP93_DETECT_H
#define EIP93_DETECT_H

#include <errno.h>
#include <stddef.h>

/* Largest root "compatible" property we accept; larger is "malformed". */
#define EIP93_DT_MAX 4096

/* Standard locations of the root node's compatible property. */
#define EIP93_DT_PROC_PATH "/proc/device-tree/compatible"
#define EIP93_DT_SYSFS_PATH "/sys/firmware/devicetree/base/compatible"

enum eip93_dt_class {
	EIP93_DT_MATCH = 0, /* lists one of the compatibles to match */
	EIP93_DT_EXCLUDED,  /* lists one of the compatibles to exclude */
	EIP93_DT_OTHER,	    /* well formed, some other board */
	EIP93_DT_MALFORMED, /* empty, unterminated, empty or non-printable string */
};

/**
 * eip93_dt_classify() - classify a root compatible property.
 * @buf: the raw property bytes (NUL-delimited strings, NUL-terminated)
 * @len: number of bytes in @buf
 * @match: the compatibles that match (NULL-terminated)
 * @exclude: the compatibles that exclude (NULL-terminated; may be NULL)
 *
 * An excluded SoC wins over a matching one when both are listed.
 */
enum eip93_dt_class eip93_dt_classify(const unsigned char *buf, size_t len,
				      const char *const *match, const char *const *exclude);

/**
 * eip93_dt_read() - read a compatible property file.
 * @path: file to read
 * @buf: output buffer of @cap bytes
 * @len: bytes read on success
 *
 * Return: 0, or -errno (-EFBIG when the file holds more than @cap bytes).
 */
int eip93_dt_read(const char *path, unsigned char *buf, size_t cap, size_t *len);

/**
 * eip93_dt_read_fallback() - read @primary, or @fallback when @primary is absent.
 * @used: the file the bytes (or the returned error) come from
 * @primary_err: the -errno of @primary when @fallback was tried, else 0
 *
 * Only -ENOENT on @primary moves on to @fallback; any other error is final.
 * Return: 0, or -errno of the last file tried.
 */
int eip93_dt_read_fallback(const char *primary, const char *fallback, unsigned char *buf,
			   size_t cap, size_t *len, const char **used, int *primary_err);

/*
 * eip93_dt_read_root() - the root compatible property from its standard
 * place: EIP93_DT_PROC_PATH, else EIP93_DT_SYSFS_PATH (eip93_dt_read_fallback()).
 */
int eip93_dt_read_root(unsigned char *buf, size_t cap, size_t *len, const char **used,
		       int *primary_err);

/**
 * eip93_dt_describe() - render the strings of a property for humans.
 *
 * Writes `"a" "b"` into @out (always NUL-terminated, truncated to @outlen);
 * non-printable bytes are shown as '?'.
 */
void eip93_dt_describe(const unsigned char *buf, size_t len, char *out, size_t outlen);

/* AArch64 AT_HWCAP bit for the ARMv8 AES instructions (asm/hwcap.h HWCAP_AES). */
#define EIP93_HWCAP_AES (1UL << 3)
/* 32-bit ARM AT_HWCAP2 bit for the ARMv8 AES instructions (arch/arm asm/hwcap.h HWCAP2_AES). */
#define EIP93_HWCAP2_ARM_AES (1UL << 0)

/* The CPU architectures a SoC row can name (EIP93_ARCH_OTHER: none of them). */
enum eip93_arch {
	EIP93_ARCH_OTHER = 0,
	EIP93_ARCH_AARCH64,
	EIP93_ARCH_ARM, /* 32-bit ARM */
	EIP93_ARCH_MIPS,
	EIP93_ARCH_RISCV,
	EIP93_NARCH
};

/**
 * struct eip93_cpu_facts - the CPU this process runs on.
 * @arch: the architecture this program was built for (and so runs on)
 * @is_aarch64: @arch == EIP93_ARCH_AARCH64
 * @hwcap: the auxiliary vector word that carries the AES bit: AT_HWCAP on
 *	aarch64, AT_HWCAP2 on 32-bit ARM; 0 elsewhere
 * @isa_aes: RISC-V: the kernel's ISA string (/proc/cpuinfo "isa") lists an
 *	AES extension (Zkne, Zvkned; -1: unreadable); 0 elsewhere
 */
struct eip93_cpu_facts {
	enum eip93_arch arch;
	int is_aarch64;
	unsigned long hwcap;
	int isa_aes;
};

/* eip93_cpu_read() - the CPU this process runs on. */
void eip93_cpu_read(struct eip93_cpu_facts *f);

/* eip93_cpu_has_aes() - whether an aarch64 AT_HWCAP advertises AES. */
int eip93_cpu_has_aes(unsigned long hwcap);

/*
 * eip93_cpu_facts_aes() - does the CPU @f describes have AES instructions
 * (aarch64 HWCAP_AES, 32-bit ARM HWCAP2_AES, RISC-V Zkne or Zvkned; MIPS
 * has none)?  1, 0, or -1 when it cannot be told (a RISC-V ISA string that
 * could not be read).
 */
int eip93_cpu_facts_aes(const struct eip93_cpu_facts *f);

/*
 * eip93_cpu_cpuinfo_aes() - RISC-V: does the first "isa" line of @path
 * (/proc/cpuinfo) list Zkne or Zvkned?  1, 0; -1: unreadable or no such line.
 */
int eip93_cpu_cpuinfo_aes(const char *path);

/* eip93_cpu_isa_aes() - does a RISC-V ISA string (riscv64imafdc_zkne_...) list Zkne or Zvkned? */
int eip93_cpu_isa_aes(const char *isa);

/* eip93_arch_name() - @a in words: "aarch64", "32-bit ARM", "MIPS", "RISC-V", "another CPU". */
const char *eip93_arch_name(enum eip93_arch a);

/* eip93_arch_parse() - the architecture named @s (aarch64, arm, mips, riscv64, other); -1: none. */
int eip93_arch_parse(const char *s);

#define EIP93_FIPS_PATH "/proc/sys/crypto/fips_enabled"

/**
 * eip93_fips_parse() - parse the contents of fips_enabled.
 *
 * Return: 1 (FIPS mode), 0 (not), or -EINVAL for anything else.
 */
int eip93_fips_parse(const char *buf, size_t len);

/**
 * eip93_fips_kernel() - read the kernel FIPS flag.
 *
 * Return: 1, 0, or -errno (-ENOENT when the kernel has no FIPS support).
 */
int eip93_fips_kernel(const char *path);

/**
 * eip93_kprobe_aead() - can an AF_ALG "aead" socket bind to @name?
 *
 * Opens an AF_ALG socket (CLOEXEC), binds it and closes it again.
 * Return: 0 on success, or -errno from socket() or bind().
 */
int eip93_kprobe_aead(const char *name);

/*
 * eip93_kprobe_alg() - can an AF_ALG socket of @name's type bind to it: an
 * "skcipher" for an AES-CTR, -CBC or -ECB name ("ctr(...)", "cbc(...)",
 * "ecb(...)"), else an "aead".  0 or -errno.
 */
int eip93_kprobe_alg(const char *name);

/* eip93_kprobe_type() - the AF_ALG type eip93_kprobe_alg() binds @name as. */
const char *eip93_kprobe_type(const char *name);

/* eip93_kprobe_restrict() - /proc/sys/crypto/af_alg_restrict, -1 when absent. */
int eip93_kprobe_restrict(void);

/* eip93_kprobe_driver() - 1/0: a "driver : @driver" line in /proc/crypto; -1 unreadable. */
int eip93_kprobe_driver(const char *driver);

/**
 * eip93_kernel_release() - the running kernel's release (uname -r) into @buf.
 *
 * Return: 0, or -errno (@buf is then "").
 */
int eip93_kernel_release(char *buf, size_t len);

/*
 * eip93_errno_name() - the symbolic name of a positive errno value the
 * gate and eip93-doctor report ("ENOENT"), "ok" for 0, "errno" for others.
 */
static inline const char *eip93_errno_name(int err)
{
	switch (err) {
	case 0:
		return "ok";
	case ENOENT:
		return "ENOENT";
	case EINVAL:
		return "EINVAL";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case EAFNOSUPPORT:
		return "EAFNOSUPPORT";
	case ENOMEM:
		return "ENOMEM";
	case EFBIG:
		return "EFBIG";
	case EBUSY:
		return "EBUSY";
	case EMFILE:
		return "EMFILE";
	case ENFILE:
		return "ENFILE";
	case ENOTSUP:
		return "ENOTSUP";
	case EBADF:
		return "EBADF";
	default:
		return "errno";
	}
}

#endif /* EIP93_DETECT_H */
