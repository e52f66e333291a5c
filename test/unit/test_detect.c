// SPDX-License-Identifier: Apache-2.0
/* detect/: device-tree classification, reading and fallback, FIPS parsing, hwcaps, probe, errno names. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "../../detect/detect.h"

/* The lists a SoC profile hands the classifier (the AN7581/EN7581's). */
static const char *const match[] = { "airoha,an7581", "airoha,en7581", NULL };
static const char *const exclude[] = { "airoha,an7583", "airoha,en7583", NULL };

static enum eip93_dt_class classify(const unsigned char *buf, size_t len)
{
	return eip93_dt_classify(buf, len, match, exclude);
}

#define DT(lit) ((const unsigned char *)(lit)), (sizeof(lit) - 1)

static void test_classify(void)
{
	unsigned char big[EIP93_DT_MAX + 1];

	CHECK_EQ_INT(classify(DT("airoha,an7581\0")), EIP93_DT_MATCH);
	CHECK_EQ_INT(classify(DT("airoha,en7581\0")), EIP93_DT_MATCH);
	CHECK_EQ_INT(classify(DT("nokia,xg-040g-md\0airoha,an7581\0")), EIP93_DT_MATCH);
	CHECK_EQ_INT(classify(DT("airoha,an7583\0")), EIP93_DT_EXCLUDED);
	CHECK_EQ_INT(classify(DT("airoha,en7583\0")), EIP93_DT_EXCLUDED);
	/* Exclusion wins over a match listed alongside it. */
	CHECK_EQ_INT(classify(DT("airoha,an7581\0airoha,an7583\0")), EIP93_DT_EXCLUDED);
	CHECK_EQ_INT(classify(DT("linux,dummy-virt\0")), EIP93_DT_OTHER);
	/* Near misses are other boards, not matches. */
	CHECK_EQ_INT(classify(DT("airoha,an75810\0")), EIP93_DT_OTHER);
	CHECK_EQ_INT(classify(DT("airoha,an758\0")), EIP93_DT_OTHER);
	CHECK_EQ_INT(classify(DT("xairoha,an7581\0")), EIP93_DT_OTHER);
	CHECK_EQ_INT(classify(DT("AIROHA,AN7581\0")), EIP93_DT_OTHER);
	/* Malformed: empty, unterminated, empty strings, non-printable, oversized. */
	CHECK_EQ_INT(classify(DT("")), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(NULL, 0), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(DT("airoha,an7581")), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(DT("\0")), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(DT("airoha,an7581\0\0")), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(DT("\0airoha,an7581\0")), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(DT("airoha,an7581 \0")), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(DT("airoha,an7581\n\0")), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(DT("airoha,\xff"
				 "an7581\0")),
		     EIP93_DT_MALFORMED);
	memset(big, 'a', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	CHECK_EQ_INT(classify(big, sizeof(big)), EIP93_DT_MALFORMED);
	CHECK_EQ_INT(classify(big + 1, sizeof(big) - 1), EIP93_DT_OTHER);
}

static void write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(buf, 1, len, f) != len) {
		perror(path);
		exit(2);
	}
	fclose(f);
}

static void test_read(void)
{
	char dir[] = "/tmp/eip93-dt-XXXXXX";
	char path[256];
	unsigned char buf[EIP93_DT_MAX], *big;
	size_t len = 99;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/missing", dir);
	CHECK_EQ_INT(eip93_dt_read(path, buf, sizeof(buf), &len), -ENOENT);
	CHECK_EQ_INT(len, 0);

	snprintf(path, sizeof(path), "%s/ok", dir);
	write_file(path, "airoha,an7581\0", 14);
	CHECK_EQ_INT(eip93_dt_read(path, buf, sizeof(buf), &len), 0);
	CHECK_EQ_INT(len, 14);
	CHECK(memcmp(buf, "airoha,an7581", 14) == 0);

	big = malloc(EIP93_DT_MAX + 1);
	memset(big, 'a', EIP93_DT_MAX + 1);
	write_file(path, big, EIP93_DT_MAX);
	CHECK_EQ_INT(eip93_dt_read(path, buf, sizeof(buf), &len), 0);
	CHECK_EQ_INT(len, EIP93_DT_MAX);
	write_file(path, big, EIP93_DT_MAX + 1);
	CHECK_EQ_INT(eip93_dt_read(path, buf, sizeof(buf), &len), -EFBIG);
	CHECK_EQ_INT(len, 0);
	free(big);

	write_file(path, "", 0);
	CHECK_EQ_INT(eip93_dt_read(path, buf, sizeof(buf), &len), 0);
	CHECK_EQ_INT(len, 0);
	CHECK_EQ_INT(classify(buf, len), EIP93_DT_MALFORMED);

	CHECK_EQ_INT(eip93_dt_read(dir, buf, sizeof(buf), &len), -EISDIR);
	unlink(path);
	rmdir(dir);
}

static void test_describe(void)
{
	char out[64];

	eip93_dt_describe(DT("a,b\0c\0"), out, sizeof(out));
	CHECK(strcmp(out, "\"a,b\" \"c\"") == 0);
	eip93_dt_describe(DT("a\x01"), out, sizeof(out));
	CHECK(strcmp(out, "\"a?\"") == 0);
	eip93_dt_describe(DT("abcdefghijklmnop\0"), out, 8);
	CHECK(strlen(out) < 8);
}

static void test_fips(void)
{
	CHECK_EQ_INT(eip93_fips_parse("0\n", 2), 0);
	CHECK_EQ_INT(eip93_fips_parse("1\n", 2), 1);
	CHECK_EQ_INT(eip93_fips_parse("1", 1), 1);
	CHECK_EQ_INT(eip93_fips_parse("2\n", 2), -EINVAL);
	CHECK_EQ_INT(eip93_fips_parse("", 0), -EINVAL);
	CHECK_EQ_INT(eip93_fips_parse("10\n", 3), -EINVAL);
	CHECK_EQ_INT(eip93_fips_parse("1x", 2), -EINVAL);
	CHECK_EQ_INT(eip93_fips_kernel("/nonexistent/fips_enabled"), -ENOENT);
}

static void test_cpu(void)
{
	struct eip93_cpu_facts f;

	CHECK(!eip93_cpu_has_aes(0));
	CHECK(eip93_cpu_has_aes(EIP93_HWCAP_AES));
	CHECK(eip93_cpu_has_aes(0xffffffffUL));
	CHECK(!eip93_cpu_has_aes(~EIP93_HWCAP_AES));
	/* RISC-V: Zkne/Zvkned (or a set that includes one) in the ISA string; not a prefix. */
	CHECK(eip93_cpu_isa_aes("rv64imafdcv_zicbom_zkne_zvkt") == 1);
	CHECK(eip93_cpu_isa_aes("rv64imafdcv_zvkned") == 1);
	CHECK(eip93_cpu_isa_aes("rv64imafdcv_zbc_zkt_zvkt\n") == 0); /* the K1's X60 */
	CHECK(eip93_cpu_isa_aes("rv64imafdcv_zknd") == 0);
	CHECK(eip93_cpu_isa_aes("rv64imafdcv_zvknha_zvkb") == 0);
	CHECK(eip93_cpu_isa_aes("rv64imafdcv_ZVKNG") == 1);
	CHECK_EQ_INT(eip93_cpu_cpuinfo_aes("/nonexistent/cpuinfo"), -1);
	{
		struct eip93_cpu_facts m = { EIP93_ARCH_MIPS, 0, ~0UL, 1 };
		struct eip93_cpu_facts a = { EIP93_ARCH_ARM, 0, EIP93_HWCAP2_ARM_AES, 0 };
		struct eip93_cpu_facts r = { EIP93_ARCH_RISCV, 0, 0, -1 };

		CHECK_EQ_INT(eip93_cpu_facts_aes(&m), 0); /* MIPS has none */
		CHECK_EQ_INT(eip93_cpu_facts_aes(&a), 1);
		a.hwcap = EIP93_HWCAP_AES; /* the aarch64 bit means nothing on 32-bit ARM */
		CHECK_EQ_INT(eip93_cpu_facts_aes(&a), 0);
		CHECK_EQ_INT(eip93_cpu_facts_aes(&r), -1);
	}
	CHECK_EQ_INT(eip93_arch_parse("mips"), EIP93_ARCH_MIPS);
	CHECK_EQ_INT(eip93_arch_parse("riscv64"), EIP93_ARCH_RISCV);
	CHECK_EQ_INT(eip93_arch_parse("sparc"), -1);
	eip93_cpu_read(&f);
#if defined(__aarch64__)
	CHECK_EQ_INT(f.is_aarch64, 1);
#else
	CHECK_EQ_INT(f.is_aarch64, 0);
	CHECK_EQ_INT(f.hwcap, 0);
#endif
}

static void test_kprobe(void)
{
	char longname[200];
	int r;

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_EQ_INT(eip93_kprobe_aead(longname), -ENAMETOOLONG);
	/* No kernel here has the EIP93 driver: no AF_ALG at all, or the name is unknown. */
	r = eip93_kprobe_aead("gcm_base(ctr(aes-eip93),ghash-generic)");
	CHECK(r == -EAFNOSUPPORT || r == -ENOENT);
	/* The SoC driver's modes bind as skciphers (a cbc bound as an aead never binds). */
	CHECK(strcmp(eip93_kprobe_type("ctr(aes-eip93)"), "skcipher") == 0);
	CHECK(strcmp(eip93_kprobe_type("cbc(aes-eip93)"), "skcipher") == 0);
	CHECK(strcmp(eip93_kprobe_type("ecb(aes-eip93)"), "skcipher") == 0);
	CHECK(strcmp(eip93_kprobe_type("gcm_base(ctr(aes-eip93),ghash-generic)"), "aead") == 0);
}

/* The /proc -> /sys fallback: only a missing first file moves on to the second. */
static void test_read_fallback(void)
{
	char dir[] = "/tmp/eip93-dtfb-XXXXXX";
	char first[256], second[256];
	unsigned char buf[EIP93_DT_MAX];
	const char *used = NULL;
	size_t len = 99;
	int perr = 1;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(first, sizeof(first), "%s/proc", dir);
	snprintf(second, sizeof(second), "%s/sys", dir);

	/* Neither: the second file's error, the first's kept. */
	CHECK_EQ_INT(eip93_dt_read_fallback(first, second, buf, sizeof(buf), &len, &used, &perr),
		     -ENOENT);
	CHECK(used == second);
	CHECK_EQ_INT(perr, -ENOENT);
	CHECK_EQ_INT(len, 0);

	/* Only the second: read from there. */
	write_file(second, "airoha,en7581\0", 14);
	CHECK_EQ_INT(eip93_dt_read_fallback(first, second, buf, sizeof(buf), &len, &used, &perr),
		     0);
	CHECK(used == second);
	CHECK_EQ_INT(perr, -ENOENT);
	CHECK_EQ_INT(len, 14);
	CHECK(memcmp(buf, "airoha,en7581", 14) == 0);

	/* The first present: the second is not read. */
	write_file(first, "airoha,an7581\0", 14);
	CHECK_EQ_INT(eip93_dt_read_fallback(first, second, buf, sizeof(buf), &len, &used, &perr),
		     0);
	CHECK(used == first);
	CHECK_EQ_INT(perr, 0);
	CHECK(memcmp(buf, "airoha,an7581", 14) == 0);
	unlink(first);

	/* The first unreadable for another reason (a directory): final, no fallback. */
	CHECK_EQ_INT(mkdir(first, 0700), 0);
	CHECK_EQ_INT(eip93_dt_read_fallback(first, second, buf, sizeof(buf), &len, &used, &perr),
		     -EISDIR);
	CHECK(used == first);
	CHECK_EQ_INT(perr, 0);
	rmdir(first);
	unlink(second);
	rmdir(dir);

	/* The standard places: whatever this host has, the answer names one of them. */
	used = NULL;
	(void)eip93_dt_read_root(buf, sizeof(buf), &len, &used, &perr);
	CHECK(used != NULL &&
	      (strcmp(used, EIP93_DT_PROC_PATH) == 0 || strcmp(used, EIP93_DT_SYSFS_PATH) == 0));
}

/* One spelling of each errno name, for the gate and eip93-doctor. */
static void test_errno_name(void)
{
	static const struct {
		int err;
		const char *name;
	} want[] = {
		{ 0, "ok" },	      { ENOENT, "ENOENT" }, { EINVAL, "EINVAL" },
		{ EPERM, "EPERM" },   { EACCES, "EACCES" }, { EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ ENOMEM, "ENOMEM" }, { EFBIG, "EFBIG" },   { EBUSY, "EBUSY" },
		{ EMFILE, "EMFILE" }, { ENFILE, "ENFILE" }, { ENOTSUP, "ENOTSUP" },
		{ EBADF, "EBADF" },   { EXDEV, "errno" },   { -1, "errno" },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK(strcmp(eip93_errno_name(want[i].err), want[i].name) == 0);
}

int main(void)
{
	test_read_fallback();
	test_errno_name();
	test_classify();
	test_read();
	test_describe();
	test_fips();
	test_cpu();
	test_kprobe();
	return check_done("test_detect");
}
