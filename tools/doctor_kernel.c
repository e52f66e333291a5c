// SPDX-License-Identifier: Apache-2.0
/*
 * tools/doctor_kernel.c owns eip93-doctor's section [5], the kernel: the
 * AF_ALG policy and binds, the /dev/crypto device and sessions, probed as
 * the provider's own configuration has its gate probe them (engine-backend,
 * kernel-algorithm, read back from the provider), and what to do
 * (tools/backend_advice.c for the choice between the two roads).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <openssl/params.h>
#include <openssl/provider.h>

#include "../engine/cryptodev.h"
#include "../engine/engine.h"
#include "../detect/detect.h"
#include "../provider/gate.h"
#include "backend_advice.h"
#include "doctor.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif

/* Did any composition's bind fail with @e? */
static int any_err(const int err[EIP93_NKALG], int e)
{
	for (int i = 0; i < EIP93_NKALG; i++)
		if (err[i] == e)
			return 1;
	return 0;
}

/* The labels of the older names stay what scripts grep for. */
static const char *const bind_label[EIP93_NKALG] = {
	[EIP93_KALG_ID_CTR] = "bind skcipher (CTR)",
	[EIP93_KALG_ID_NEON] = "bind aead (NEON)",
	[EIP93_KALG_ID_GENERIC] = "bind aead",
	[EIP93_KALG_ID_LIB] = "bind aead (retry)",
};
static const char *const cdev_label[EIP93_NKALG] = {
	[EIP93_KALG_ID_CTR] = "cdev session (CTR)",
	[EIP93_KALG_ID_NEON] = "cdev session (NEON)",
	[EIP93_KALG_ID_GENERIC] = "cdev session",
	[EIP93_KALG_ID_LIB] = "cdev session (lib)",
};

/*
 * The provider's engine-backend and kernel-algorithm (defaults when it
 * cannot load).  It stays loaded for section [6], which reports what
 * loading it raised (the queue is left as it is).
 */
static void provider_config(int *backend, char *kalg, size_t len)
{
	static OSSL_PROVIDER *held;
	const char *b = NULL, *k = NULL;
	OSSL_PARAM p[3];

	*backend = EIP93_BACKEND_AUTO;
	kalg[0] = '\0';
	if (held == NULL)
		held = OSSL_PROVIDER_load(NULL, "eip93");
	if (held == NULL)
		return;
	p[0] = OSSL_PARAM_construct_utf8_ptr("eip93-engine-backend", (char **)&b, 0);
	p[1] = OSSL_PARAM_construct_utf8_ptr("eip93-kernel-algorithm", (char **)&k, 0);
	p[2] = OSSL_PARAM_construct_end();
	if (!OSSL_PROVIDER_get_params(held, p))
		return;
	if (b != NULL && strcmp(b, "afalg") == 0)
		*backend = EIP93_BACKEND_AFALG;
	if (b != NULL && strcmp(b, "cryptodev") == 0)
		*backend = EIP93_BACKEND_CRYPTODEV;
	if (k != NULL && eip93_kalg_index(k) >= 0)
		snprintf(kalg, len, "%s", k);
}

/* The device: 0 when it opens read-write, else the errno; its mode and owner as a fact. */
static int cdev_device(void)
{
	struct stat st;
	int fd = open("/dev/crypto", O_RDWR | O_CLOEXEC), e = fd < 0 ? errno : 0;

	if (fd >= 0)
		close(fd);
	if (stat("/dev/crypto", &st) != 0)
		doctor_fact("/dev/crypto", "%s %d (%s)%s", eip93_errno_name(errno), errno,
			    strerror(errno),
			    errno == ENOENT ? " - the cryptodev module is not loaded" : "");
	else
		doctor_fact("/dev/crypto", "%s (mode %04o, uid %u, gid %u; this process: uid %u)",
			    e == 0 ? "opens read-write" : strerror(e),
			    (unsigned int)(st.st_mode & 07777), (unsigned int)st.st_uid,
			    (unsigned int)st.st_gid, (unsigned int)geteuid());
	return e;
}

/* Sessions in the gate's order on /dev/crypto (as many as the gate would try). */
static int cdev_sessions(const char *kalg, int err[EIP93_NKALG], char *driver, size_t dlen)
{
	for (int i = 0; i < EIP93_NKALG; i++) {
		char d[128] = "";

		if (kalg[0] != '\0' && strcmp(kalg, eip93_kalg_names[i]) != 0)
			continue;
		err[i] = -eip93_cryptodev_probe(eip93_kalg_names[i], d, sizeof(d));
		if (err[i] == 0) {
			doctor_fact(cdev_label[i], "%s: ok (driver %s)", eip93_kalg_names[i], d);
			return i;
		}
		if (err[i] == ENODEV && d[0] != '\0') {
			doctor_fact(cdev_label[i], "%s: served by %s, not the engine",
				    eip93_kalg_names[i], d);
			if (driver[0] == '\0')
				snprintf(driver, dlen, "%s", d);
		} else {
			doctor_fact(cdev_label[i], "%s: %s - %s", eip93_kalg_names[i],
				    eip93_errno_name(err[i]), strerror(err[i]));
		}
	}
	return -1;
}

/* The GHASH of the bound composition, with the NEON advice where it is the table one. */
static void ghash(int bound)
{
	doctor_fact("GHASH", "%s", eip93_gate_ghash_note(eip93_kalg_names[bound]));
	if (bound == EIP93_KALG_ID_GENERIC)
		doctor_advise("no NEON GHASH here, so the kernel's GCM uses the table "
			      "GHASH (ghash-generic): about 39 cycles/byte on a Cortex-A53, "
			      "more than OpenSSL's whole software AES-GCM, so the calibration "
			      "keeps the engine off (or to few sizes); correct either way. "
			      "To get it: modprobe ghash-ce where the kernel has it (Debian "
			      "arm64: eip93-ghash.service loads it at boot); "
			      "stock OpenWrt images do not build it: build the image in a "
			      "full OpenWrt buildroot with CONFIG_CRYPTO_GHASH_ARM64_CE in "
			      "the kernel config. Then run eip93-doctor calibrate");
}

/* The AF_ALG advice where the backend advice had nothing to say. */
static void afalg_advice(const int err[EIP93_NKALG], int driver)
{
	if (err[EIP93_KALG_ID_CTR] == EAFNOSUPPORT)
		doctor_advise("the kernel has no AF_ALG: load af_alg and algif_skcipher (and "
			      "algif_aead for the kernel's AES-GCM compositions) (OpenWrt: "
			      "kmod-crypto-user; Debian: modprobe algif_skcipher algif_aead)");
	else if (any_err(err, EPERM) || any_err(err, EACCES))
		doctor_advise("a policy refuses the bind (an LSM such as SELinux or AppArmor, or "
			      "a seccomp filter) - see docs/operations.md");
	else if (driver != 1)
		doctor_advise("the EIP93 driver is not loaded: load it (OpenWrt: "
			      "kmod-crypto-hw-eip93, then modprobe it or reboot); without it "
			      "nothing is offloaded");
	else if (err[EIP93_KALG_ID_CTR] == ENOTSUP)
		doctor_advise("this libcrypto was built with OPENSSL_SMALL_FOOTPRINT: its GCM code "
			      "cannot be composed with the engine's AES-CTR (ctr(aes-eip93)); a "
			      "libcrypto built without it, or a kernel AES-GCM composition "
			      "(gcm_base), is needed");
	else if (err[EIP93_KALG_ID_CTR] != 0)
		doctor_advise("ctr(aes-eip93) is registered but does not bind as an skcipher: load "
			      "AF_ALG's skcipher type (modprobe algif_skcipher; OpenWrt: "
			      "kmod-crypto-user) - the CTR-only composition needs nothing else");
}

int doctor_check_kernel(void)
{
	static const char *const backend_names[] = { "auto", "afalg", "cryptodev" };
	char line[512], restrict_val[64], kalg[64], rel[128], driver_name[128] = "", adv[1024];
	int err[EIP93_NKALG] = { 0 }, cerr[EIP93_NKALG] = { 0 }, fd, driver, bound = -1;
	int cbound = -1, backend;
	struct backend_facts f;

	memset(&f, 0, sizeof(f));
	provider_config(&backend, kalg, sizeof(kalg));
	printf("\n[5] kernel (AF_ALG)\n");
	if (doctor_read_line("/proc/sys/crypto/af_alg_restrict", restrict_val,
			     sizeof(restrict_val)) == 0)
		doctor_fact("af_alg_restrict", "%s", restrict_val);
	else
		doctor_fact("af_alg_restrict", "(not present)");
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	f.afalg_socket = fd < 0 ? errno : 0;
	if (fd < 0) {
		doctor_fact("AF_ALG socket", "%s %d (%s)", eip93_errno_name(f.afalg_socket),
			    f.afalg_socket, strerror(f.afalg_socket));
	} else {
		doctor_fact("AF_ALG socket", "ok");
		close(fd);
	}
	driver = doctor_file_has("/proc/crypto", "ctr(aes-eip93)", NULL, 0);
	doctor_fact("ctr(aes-eip93)", "%s",
		    driver == 1	  ? "registered (/proc/crypto)"
		    : driver == 0 ? "not registered (/proc/crypto)"
				  : "/proc/crypto not readable");
	doctor_fact("ghash-neon", "%s",
		    doctor_file_has("/proc/crypto", "ghash-neon", NULL, 0) == 1
			    ? "registered (/proc/crypto)"
			    : "not registered (/proc/crypto)");
	if (doctor_file_has("/proc/modules", "eip93", line, sizeof(line)) == 1)
		doctor_fact("module", "%s", line);
	if (doctor_file_has("/proc/interrupts", "eip93", line, sizeof(line)) == 1)
		doctor_fact("interrupts", "%s", line);
	doctor_fact("engine-backend", "%s%s%s (the provider's configuration)",
		    backend_names[backend], kalg[0] ? "; kernel-algorithm = " : "", kalg);
	/* In the gate's order, as the configuration has the gate probe them. */
	f.afalg_tried = backend != EIP93_BACKEND_CRYPTODEV;
	for (int i = 0; f.afalg_tried && i < EIP93_NKALG && bound < 0; i++) {
		if (kalg[0] != '\0' && strcmp(kalg, eip93_kalg_names[i]) != 0)
			continue;
		err[i] = -eip93_kprobe_alg(eip93_kalg_names[i]);
		doctor_fact(bind_label[i], "%s: %s%s%s", eip93_kalg_names[i],
			    eip93_errno_name(err[i]), err[i] ? " - " : "",
			    err[i] ? strerror(err[i]) : "");
		if (err[i] == 0)
			bound = i;
	}
	if (!f.afalg_tried)
		doctor_fact("AF_ALG binds", "not tried (engine-backend = cryptodev)");
	f.cdev_tried =
		backend == EIP93_BACKEND_CRYPTODEV || (backend == EIP93_BACKEND_AUTO && bound < 0);
	if (f.cdev_tried) {
		f.cdev_open = cdev_device();
		if (f.cdev_open == 0)
			cbound = cdev_sessions(kalg, cerr, driver_name, sizeof(driver_name));
	} else {
		doctor_fact("/dev/crypto", "not tried (%s)",
			    bound >= 0 ? "AF_ALG binds first" : "engine-backend = afalg");
	}
	if (eip93_kernel_release(rel, sizeof(rel)) != 0)
		rel[0] = '\0';
	f.release = rel[0] ? rel : NULL;
	f.restrict_val = eip93_gate_read_restrict();
	f.configured = backend;
	f.afalg_bound = bound >= 0;
	f.cdev_bound = cbound >= 0;
	f.cdev_driver = driver_name;
	f.driver = driver;
	f.openwrt = access("/etc/openwrt_release", F_OK) == 0;
	doctor_fact("backend", "%s",
		    strcmp(backend_in_use(&f), "none") == 0 ? "none binds" : backend_in_use(&f));
	if (bound >= 0 || cbound >= 0) {
		ghash(bound >= 0 ? bound : cbound);
		return 1;
	}
	if (f.afalg_tried)
		doctor_fact("meaning", "%s",
			    eip93_gate_kernel_why(f.release, f.restrict_val, driver, err));
	if (f.cdev_tried && f.cdev_open == 0)
		doctor_fact("cdev meaning", "%s", eip93_gate_cdev_why(cerr));
	if (backend_advice(&f, adv, sizeof(adv)))
		doctor_advise("%s", adv);
	else if (f.afalg_tried)
		afalg_advice(err, driver);
	return 0;
}
