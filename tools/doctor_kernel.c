// SPDX-License-Identifier: Apache-2.0
/*
 * tools/doctor_kernel.c owns eip93-doctor's section [5], the kernel: the
 * AF_ALG policy and binds, the /dev/crypto device and sessions, probed as
 * the provider's own configuration has its gate probe them (engine-backend,
 * kernel-algorithm, read back from the provider) over the engine rows and
 * this board's SoC row, and what to do (tools/backend_advice.c for the
 * choice between the two roads).
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

#include "../detect/detect.h"
#include "../engine/engine.h"
#include "../provider/soc.h"
#include "backend_advice.h"
#include "doctor.h"
#include "rows.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif

/* Did any composition's bind fail with @e? */
static int any_err(const int err[EIP93_NCOMP_KINDS], int e)
{
	for (int i = 0; i < EIP93_NCOMP_KINDS; i++)
		if (err[i] == e)
			return 1;
	return 0;
}

/*
 * What the doctor says of one road besides the row's own words: the facts
 * its tries are printed under (a composition's bind or cdev label), the
 * fact when it is not tried and the one naming what its failures mean.
 */
struct road {
	int id;		     /* its engine row's */
	int cdev;	     /* /dev/crypto: the cdev labels, the device first, drivers named */
	const char *untried; /* the fact's name when it is not tried */
	const char *meaning; /* the fact's name for what its failed tries mean */
};

static const struct road roads[] = {
	{ EIP93_BACKEND_AFALG, 0, "AF_ALG binds", "meaning" },
	{ EIP93_BACKEND_CRYPTODEV, 1, "/dev/crypto", "cdev meaning" },
};
_Static_assert(sizeof(roads) / sizeof(roads[0]) == EIP93_NENGINES,
	       "the doctor's words for every engine row (a new backend adds its line here)");

static const struct road *road_of(const struct eip93_engine_row *row)
{
	for (size_t i = 0; i < sizeof(roads) / sizeof(roads[0]); i++)
		if (roads[i].id == row->id)
			return &roads[i];
	return &roads[0];
}

/* What one road's tries found. */
struct tries {
	int tried;		    /* the configuration has the gate try it */
	int usable;		    /* its device opened (or it has none): the tries ran */
	int bound;		    /* the SoC row's composition that bound, or -1 */
	int err[EIP93_NCOMP_KINDS]; /* positive errno by composition kind; 0: bound or not tried */
	char driver[128];	    /* the first driver a refused session named */
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
	for (int i = 0; b != NULL && i < EIP93_NENGINES; i++)
		if (strcmp(b, eip93_engine_rows[i].name) == 0)
			*backend = eip93_engine_rows[i].id;
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

/* The SoC row's compositions on @row in the gate's order (as many as the gate would try). */
static void try_row(const struct eip93_engine_row *row, const struct eip93_soc *soc,
		    const char *kalg, struct tries *t)
{
	const struct road *rd = road_of(row);

	for (size_t i = 0; i < soc->ncomps; i++) {
		const struct eip93_soc_comp *c = &soc->comps[i];
		const char *label = rd->cdev ? c->cdev_label : c->bind_label;
		char d[128] = "";
		int e;

		/* As the gate: kernel-algorithm's alone; a forced one only when named. */
		if ((kalg[0] != '\0' && strcmp(kalg, c->kalg) != 0) ||
		    (kalg[0] == '\0' && c->forced))
			continue;
		e = -row->probe(c->kalg, d, sizeof(d));
		t->err[c->kind] = e;
		if (e == 0) {
			if (rd->cdev)
				doctor_fact(label, "%s: ok (driver %s)", c->kalg, d);
			else
				doctor_fact(label, "%s: ok", c->kalg);
			t->bound = (int)i;
			return;
		}
		if (e == ENODEV && d[0] != '\0') {
			doctor_fact(label, "%s: served by %s, not the engine", c->kalg, d);
			if (t->driver[0] == '\0')
				snprintf(t->driver, sizeof(t->driver), "%s", d);
		} else {
			doctor_fact(label, "%s: %s - %s", c->kalg, eip93_errno_name(e),
				    strerror(e));
		}
	}
}

/* The GHASH of the bound composition, with the NEON advice where it is the table one. */
static void ghash(const struct eip93_soc *soc, const struct eip93_soc_comp *bound)
{
	doctor_fact("GHASH", "%s", bound->ghash);
	if (bound->kind == EIP93_COMP_GCM_GENERIC && soc->arch != EIP93_ARCH_AARCH64)
		doctor_advise("the kernel's GCM uses its table GHASH in C here (%s has no GHASH "
			      "instructions); the CTR-only composition (GHASH in libcrypto) is the "
			      "gate's first choice: the calibration measures both",
			      eip93_arch_name(soc->arch));
	else if (bound->kind == EIP93_COMP_GCM_GENERIC)
		doctor_advise("no NEON GHASH here, so the kernel's GCM uses the table "
			      "GHASH (ghash-generic): about 39 cycles/byte on a %s, "
			      "more than OpenSSL's whole software AES-GCM, so the calibration "
			      "keeps the engine off (or to few sizes); correct either way. "
			      "To get it: modprobe ghash-ce where the kernel has it (Debian "
			      "arm64: eip93-ghash.service loads it at boot); "
			      "stock OpenWrt images do not build it: build the image in a "
			      "full OpenWrt buildroot with CONFIG_CRYPTO_GHASH_ARM64_CE in "
			      "the kernel config. Then run eip93-doctor calibrate",
			      soc->core);
}

/* The AF_ALG advice where the backend advice had nothing to say. */
static void afalg_advice(const struct eip93_soc *soc, const int err[EIP93_NCOMP_KINDS], int driver)
{
	const char *ctr = eip93_soc_engine_alg(soc);
	int first = err[soc->comps[0].kind]; /* the row's first composition: CTR-only, or ECB */

	if (first == EAFNOSUPPORT)
		doctor_advise("the kernel has no AF_ALG: load af_alg and algif_skcipher (and "
			      "algif_aead for the kernel's AES-GCM compositions) (OpenWrt: "
			      "kmod-crypto-user; Debian: modprobe algif_skcipher algif_aead)");
	else if (any_err(err, EPERM) || any_err(err, EACCES))
		doctor_advise("a policy refuses the bind (an LSM such as SELinux or AppArmor, or "
			      "a seccomp filter) - see docs/operations.md");
	else if (driver != 1)
		doctor_advise("%s is not loaded: load it (OpenWrt: "
			      "%s%s); without it nothing is offloaded",
			      soc->driver,
			      soc->package != NULL ? soc->package
						   : "built into the target's kernel",
			      soc->package != NULL ? ", then modprobe it or reboot" : "");
	else if (first == ENOTSUP)
		doctor_advise("this libcrypto's GCM code failed the composition's self-test, so it "
			      "cannot be composed with the engine's AES (%s): report it with "
			      "`openssl version -a`; a kernel AES-GCM composition (gcm_base) "
			      "is the way meanwhile",
			      ctr);
	else if (first != 0)
		doctor_advise("%s is registered but does not bind as an skcipher: load "
			      "AF_ALG's skcipher type (modprobe algif_skcipher; OpenWrt: "
			      "kmod-crypto-user) - the %s composition needs nothing else",
			      ctr, soc->comps[0].kind == EIP93_COMP_ECB ? "ECB" : "CTR-only");
}

/* The ghash-neon line: is the NEON kind's GHASH registered (no line when the SoC has none)? */
static void neon_fact(const struct eip93_soc *soc)
{
	char name[64];

	for (size_t i = 0; i < soc->ncomps; i++)
		if (soc->comps[i].kind == EIP93_COMP_GCM_NEON) {
			tools_ghash_name(soc->comps[i].kalg, name, sizeof(name));
			doctor_fact(name, "%s",
				    doctor_file_has("/proc/crypto", name, NULL, 0) == 1
					    ? "registered (/proc/crypto)"
					    : "not registered (/proc/crypto)");
			return;
		}
}

/* What road @i's failed tries mean, in one line. */
static const char *meaning(int i, const struct tries *t, const struct backend_facts *f,
			   const struct eip93_soc *soc, char *buf, size_t n)
{
	struct eip93_engine_tries et;

	memset(&et, 0, sizeof(et));
	et.release = f->release;
	et.driver_ctr = eip93_soc_engine_alg(soc);
	et.driver = soc->driver;
	memcpy(et.err, t->err, sizeof(et.err));
	if (!road_of(&eip93_engine_rows[i])->cdev)
		eip93_afalg_why_facts(&et, f->restrict_val, f->driver, buf, n);
	else
		eip93_engine_rows[i].why(&et, buf, n);
	return buf;
}

/* Every engine row in auto's order, as the configuration has the gate probe them. */
static int try_rows(const struct eip93_soc *soc, int backend, const char *kalg,
		    struct tries t[EIP93_NENGINES], struct backend_facts *f)
{
	int first = -1;

	for (int i = 0; i < EIP93_NENGINES; i++) {
		const struct eip93_engine_row *row = &eip93_engine_rows[i];
		const struct road *rd = road_of(row);

		t[i].bound = -1;
		t[i].tried = first < 0 && (backend == EIP93_BACKEND_AUTO || backend == row->id);
		if (!t[i].tried) {
			doctor_fact(rd->untried, "not tried (%s%s)",
				    first >= 0 ? eip93_engine_rows[first].road
					       : "engine-backend = ",
				    first >= 0 ? " binds first" : tools_row(backend)->name);
			continue;
		}
		t[i].usable = 1;
		if (rd->cdev) {
			f->cdev_open = cdev_device();
			t[i].usable = f->cdev_open == 0;
		}
		if (t[i].usable)
			try_row(row, soc, kalg, &t[i]);
		if (t[i].bound >= 0)
			first = i;
	}
	return first;
}

int doctor_check_kernel(void)
{
	const struct eip93_soc *soc = tools_soc();
	const char *ctr = eip93_soc_engine_alg(soc);
	char line[512], restrict_val[64], kalg[64], rel[128], adv[1024], why[512];
	struct tries t[EIP93_NENGINES];
	int fd, driver, first, backend;
	struct backend_facts f;

	memset(&f, 0, sizeof(f));
	memset(t, 0, sizeof(t));
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
	driver = doctor_file_has("/proc/crypto", ctr, NULL, 0);
	doctor_fact(ctr, "%s",
		    driver == 1	  ? "registered (/proc/crypto)"
		    : driver == 0 ? "not registered (/proc/crypto)"
				  : "/proc/crypto not readable");
	neon_fact(soc);
	if (doctor_file_has("/proc/modules", "eip93", line, sizeof(line)) == 1)
		doctor_fact("module", "%s", line);
	if (doctor_file_has("/proc/interrupts", "eip93", line, sizeof(line)) == 1)
		doctor_fact("interrupts", "%s", line);
	doctor_fact("engine-backend", "%s%s%s (the provider's configuration)",
		    backend == EIP93_BACKEND_AUTO ? "auto" : tools_row(backend)->name,
		    kalg[0] ? "; kernel-algorithm = " : "", kalg);
	first = try_rows(soc, backend, kalg, t, &f);
	for (int i = 0; i < EIP93_NENGINES; i++) {
		const struct road *rd = road_of(&eip93_engine_rows[i]);

		if (rd->cdev) {
			f.cdev_tried = t[i].tried;
			f.cdev_bound = t[i].bound >= 0;
			f.cdev_driver = t[i].driver;
		} else {
			f.afalg_tried = t[i].tried;
			f.afalg_bound = t[i].bound >= 0;
		}
	}
	if (eip93_kernel_release(rel, sizeof(rel)) != 0)
		rel[0] = '\0';
	f.release = rel[0] ? rel : NULL;
	f.restrict_val = eip93_kprobe_restrict();
	f.configured = backend;
	f.driver = driver;
	f.driver_ctr = ctr;
	f.openwrt = access("/etc/openwrt_release", F_OK) == 0;
	doctor_fact("backend", "%s",
		    strcmp(backend_in_use(&f), "none") == 0 ? "none binds" : backend_in_use(&f));
	if (first >= 0) {
		ghash(soc, &soc->comps[t[first].bound]);
		return 1;
	}
	for (int i = 0; i < EIP93_NENGINES; i++)
		if (t[i].tried && t[i].usable)
			doctor_fact(road_of(&eip93_engine_rows[i])->meaning, "%s",
				    meaning(i, &t[i], &f, soc, why, sizeof(why)));
	if (backend_advice(&f, adv, sizeof(adv)))
		doctor_advise("%s", adv);
	else
		for (int i = 0; i < EIP93_NENGINES; i++)
			if (t[i].tried && !road_of(&eip93_engine_rows[i])->cdev)
				afalg_advice(soc, t[i].err, driver);
	return 0;
}
