// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-sim-modes-check: the simulated EIP93 driver's CBC and ECB algorithms
 * and its modelled driver bugs, at the kernel interface (AF_ALG skcipher, no
 * OpenSSL), against the kernel's own software templates over the generic AES
 * ("cbc(aes-generic)", ... or "aes-lib" where that is the name).  Run by
 * test/guest/sim-modes.sh once eip93_sim.ko is loaded (this file: 1, 2 and
 * main; modes_bugs.c: 3, 4, 5):
 *
 *   1. registration: cbc(aes-eip93) and ecb(aes-eip93) as the real driver
 *      registers them (/proc/crypto, and the flags through NETLINK_CRYPTO);
 *   2. both equal the generic ones on random data, every key size, both
 *      directions, one driver request each; partial blocks are EINVAL;
 *   3. bug_direction: an encrypt after a decrypt on one transform (one bound
 *      socket) computes a decryption with 1, not with 0; separate
 *      transforms and CTR are right either way;
 *   4. bug_ctr32: a counter starting at low word 0xfffffffe over 4 blocks is
 *      wrong in blocks 2 and 3 (a counter without carry) with 1, right with
 *      0; split by the caller at the wrap it is right;
 *   5. fault_layout: 0 never faults a CBC or plain-CTR request, 1 does
 *      (bit flips, nothing written, a skipped block, source and destination
 *      page boundaries).
 *
 * Prints "ok - ..." / "not ok - ..." lines; exit status 0 when every check
 * ran and passed, 1 otherwise.
 */
#include <errno.h>
#include <linux/cryptouser.h>
#include <linux/if_alg.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../sim.h"
#include "modes_check.h"

#define CHECKS 45 /* the ok/not ok lines a full run prints */

static int n_ok, n_bad;
char ref_aes[16] = "aes-generic"; /* the generic AES under the reference templates */

void check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (cond)
		n_ok++;
	else
		n_bad++;
}

/* ---- knobs, random data ------------------------------------------------- */

long long knob(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), P "%s", name);
	return sim_read(path);
}

void set_knob(const char *name, long long v)
{
	char path[128];

	snprintf(path, sizeof(path), P "%s", name);
	if (sim_write(path, v) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

static uint64_t rng;

void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng >> 12;
		rng ^= rng << 25;
		rng ^= rng >> 27;
		p[i] = (unsigned char)((rng * 0x2545f4914f6cdd1dULL) >> 56);
	}
}

/* ---- AF_ALG ------------------------------------------------------------- */

/* Bind an skcipher transform of @name, set @key, accept one operation socket. */
int tfm_open(struct tfm *t, const char *name, const unsigned char *k, size_t keylen)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int e;

	strcpy((char *)sa.salg_type, "skcipher");
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", name);
	t->op = -1;
	t->fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (t->fd < 0)
		return -errno;
	if (bind(t->fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    setsockopt(t->fd, SOL_ALG, ALG_SET_KEY, k, (socklen_t)keylen) == 0) {
		t->op = accept4(t->fd, NULL, NULL, SOCK_CLOEXEC);
		if (t->op >= 0)
			return 0;
	}
	e = -errno;
	close(t->fd);
	t->fd = -1;
	return e;
}

void tfm_close(struct tfm *t)
{
	if (t->op >= 0)
		close(t->op);
	if (t->fd >= 0)
		close(t->fd);
	t->fd = t->op = -1;
}

/* One request on operation socket @op: 0 or -errno. */
int op_crypt(int op, int enc, const unsigned char *v, const unsigned char *src, size_t len,
	     unsigned char *dst)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(struct af_alg_iv) + BLK)] = {
		0
	};
	struct iovec iov = { .iov_base = (void *)src, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf };
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	uint32_t type = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	size_t got = 0;

	msg.msg_controllen =
		CMSG_SPACE(sizeof(type)) + (v ? CMSG_SPACE(sizeof(struct af_alg_iv) + BLK) : 0);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(type));
	memcpy(CMSG_DATA(c), &type, sizeof(type));
	if (v) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + BLK);
		aiv = (struct af_alg_iv *)(void *)CMSG_DATA(c);
		aiv->ivlen = BLK;
		memcpy(aiv->iv, v, BLK);
	}
	if (sendmsg(op, &msg, 0) != (ssize_t)len)
		return -errno;
	while (got < len) {
		ssize_t r = read(op, dst + got, len - got);

		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		got += (size_t)r;
	}
	return 0;
}

/* One request of @mode ("cbc", ...) through driver @drv ("aes-eip93", the reference AES). */
int crypt1(const char *mode, const char *drv, const unsigned char *k, size_t keylen, int enc,
	   const unsigned char *v, const unsigned char *src, size_t len, unsigned char *dst)
{
	char name[64];
	struct tfm t;
	int e;

	snprintf(name, sizeof(name), "%s(%s)", mode, drv);
	e = tfm_open(&t, name, k, keylen);
	if (e == 0)
		e = op_crypt(t.op, enc, v, src, len, dst);
	tfm_close(&t);
	return e;
}

/* The reference: the kernel's software template of @mode over the generic AES. */
int ref(const char *mode, const unsigned char *k, size_t keylen, int enc, const unsigned char *v,
	const unsigned char *src, size_t len, unsigned char *dst)
{
	return crypt1(mode, ref_aes, k, keylen, enc, v, src, len, dst);
}

/* Differing bits of a and b; *first: the first differing byte (or n). */
unsigned int diffbits(const unsigned char *a, const unsigned char *b, size_t n, size_t *first)
{
	unsigned int bits = 0;

	*first = n;
	for (size_t i = 0; i < n; i++) {
		if (a[i] != b[i] && *first == n)
			*first = i;
		bits += (unsigned int)__builtin_popcount(a[i] ^ b[i]);
	}
	return bits;
}

unsigned char key[32], iv[BLK], in[5 * PAGE], want[5 * PAGE], alt[5 * PAGE];
unsigned char out[5 * PAGE] __attribute__((aligned(PAGE)));

/* ---- 1. registration ---------------------------------------------------- */

/*
 * The /proc/crypto entry of driver @drv into @blk, each line printed as a
 * comment and preceded by a newline ("" when absent).
 */
static void crypto_entry(const char *drv, char *blk, size_t n)
{
	char line[256], cur[2048] = "", want_line[160];
	size_t used = 0;
	int hit = 0;
	FILE *f = fopen("/proc/crypto", "re");

	blk[0] = '\0';
	snprintf(want_line, sizeof(want_line), "%-12s : %s", "driver", drv);
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0]) {
			if (hit)
				break;
			used = 0;
			continue;
		}
		hit |= strcmp(line, want_line) == 0;
		if (used < sizeof(cur))
			used += (size_t)snprintf(cur + used, sizeof(cur) - used, "\n%s", line);
	}
	if (f)
		fclose(f);
	if (!hit)
		return;
	snprintf(blk, n, "%s\n", cur);
	for (const char *l = blk; l && l[1]; l = strchr(l + 1, '\n'))
		printf("#  %.*s\n", (int)strcspn(l + 1, "\n"), l + 1);
}

/* Does @blk have the line "@k<spaces> : @v" (/proc/crypto's "%-12s : %s")? */
static int has_field(const char *blk, const char *k, const char *v)
{
	char line[160];

	snprintf(line, sizeof(line), "\n%-12s : %s\n", k, v);
	return strstr(blk, line) != NULL;
}

/* The algorithm's cra_flags through NETLINK_CRYPTO (CRYPTO_MSG_GETALG), or -1. */
static long long alg_flags(const char *drv)
{
	struct {
		struct nlmsghdr h;
		struct crypto_user_alg a;
	} req = { .h = { .nlmsg_len = sizeof(req),
			 .nlmsg_type = CRYPTO_MSG_GETALG,
			 .nlmsg_flags = NLM_F_REQUEST } };
	union {
		struct nlmsghdr h;
		char b[8192];
	} rsp;
	long long flags = -1;
	ssize_t r;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_CRYPTO);

	if (fd < 0)
		return -1;
	snprintf(req.a.cru_driver_name, sizeof(req.a.cru_driver_name), "%s", drv);
	if (send(fd, &req, sizeof(req), 0) == (ssize_t)sizeof(req)) {
		r = recv(fd, &rsp, sizeof(rsp), 0);
		if (r > 0 && NLMSG_OK(&rsp.h, (size_t)r) && rsp.h.nlmsg_type == CRYPTO_MSG_GETALG &&
		    rsp.h.nlmsg_len >= NLMSG_LENGTH(sizeof(struct crypto_user_alg)))
			flags = ((const struct crypto_user_alg *)NLMSG_DATA(&rsp.h))->cru_flags;
	}
	close(fd);
	return flags;
}

static void registration(const char *mode, const char *ivsize)
{
	char drv[32], name[32], blk[4096];
	long long fl;

	snprintf(drv, sizeof(drv), "%s(aes-eip93)", mode);
	snprintf(name, sizeof(name), "%s(aes)", mode);
	crypto_entry(drv, blk, sizeof(blk));
	check(has_field(blk, "name", name) && has_field(blk, "module", "eip93_sim") &&
		      has_field(blk, "priority", "1500") && has_field(blk, "type", "skcipher") &&
		      has_field(blk, "async", "yes") && has_field(blk, "blocksize", "16") &&
		      has_field(blk, "ivsize", ivsize) && has_field(blk, "min keysize", "16") &&
		      has_field(blk, "max keysize", "32"),
	      "%s registered: name %s, module eip93_sim, priority 1500, async skcipher, "
	      "blocksize 16, ivsize %s, keys 16..32",
	      drv, name, ivsize);
	check(has_field(blk, "selftest", "passed"), "%s: the kernel's self-test passed", drv);
	fl = alg_flags(drv);
	/* CRYPTO_ALG_ASYNC | NEED_FALLBACK | KERN_DRIVER_ONLY, type skcipher (5) */
	check(fl >= 0 && (fl & 0x1180) == 0x1180 && (fl & 0xf) == 5,
	      "%s: cra_flags 0x%llx (async, need-fallback, driver-only, skcipher)", drv, fl);
}

/* ---- 2. the generic templates' results ---------------------------------- */

static void equal_generic(const char *mode, int ivd)
{
	static const size_t lens[] = { 16, 64, 4128, 16384 };

	for (size_t keylen = 16; keylen <= 32; keylen += 8) {
		long long ops0 = knob("ops"), bytes0 = knob("bytes");
		int err = 0, same = 1, nreq = 0;
		size_t total = 0;

		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			for (int enc = 1; enc >= 0; enc--) {
				size_t len = lens[i];
				int e1, e2;

				fill(key, keylen);
				fill(iv, BLK);
				fill(in, len);
				e1 = crypt1(mode, "aes-eip93", key, keylen, enc, ivd ? iv : NULL,
					    in, len, out);
				e2 = ref(mode, key, keylen, enc, ivd ? iv : NULL, in, len, want);
				nreq++;
				total += len;
				if (e1 || e2)
					err = e1 ? e1 : e2;
				else if (memcmp(out, want, len) != 0)
					same = 0;
			}
		}
		check(!err && same && knob("ops") - ops0 == nreq &&
			      knob("bytes") - bytes0 == (long long)total,
		      "%s(aes-eip93) = %s(%s), AES-%zu, lengths 16..16384 both directions: err %d, "
		      "driver ops +%lld of %d, bytes +%lld of %zu",
		      mode, mode, ref_aes, keylen * 8, err, knob("ops") - ops0, nreq,
		      knob("bytes") - bytes0, total);
	}
}

static void partial(const char *mode, size_t len, int ivd)
{
	long long ops0 = knob("ops");
	int e = crypt1(mode, "aes-eip93", key, 16, 1, ivd ? iv : NULL, in, len, out);

	check(e == -EINVAL && knob("ops") == ops0,
	      "%s(aes-eip93), %zu bytes (partial block): EINVAL (%d), never queued (ops +%lld)",
	      mode, len, e, knob("ops") - ops0);
}

int main(void)
{
	char name[32];
	struct tfm t;

	if (getrandom(&rng, sizeof(rng), 0) != (ssize_t)sizeof(rng) || !rng)
		rng = 0x9e3779b97f4a7c15ULL;
	printf("# seed %llu\n", (unsigned long long)rng);
	if (knob("ops") < 0) {
		printf("Bail out! eip93_sim not loaded\n");
		return 1;
	}
	/* The reference AES: aes-generic up to 6.x, aes-lib on 7.x. */
	fill(key, 16);
	if (tfm_open(&t, "ecb(aes-generic)", key, 16) != 0)
		snprintf(ref_aes, sizeof(ref_aes), "aes-lib");
	else
		tfm_close(&t);
	snprintf(name, sizeof(name), "ecb(%s)", ref_aes);
	if (tfm_open(&t, name, key, 16) != 0) {
		printf("Bail out! no generic AES to compare with\n");
		return 1;
	}
	tfm_close(&t);

	check(knob("bug_direction") == 1 && knob("bug_ctr32") == 1 && knob("fault_layout") == 0 &&
		      knob("fault") == 0,
	      "defaults: bug_direction 1, bug_ctr32 1, fault_layout 0, fault 0");
	registration("cbc", "16");
	registration("ecb", "0");
	equal_generic("cbc", 1);
	equal_generic("ecb", 0);
	partial("cbc", 15, 1);
	partial("ecb", 17, 0);
	direction("cbc", 1);
	direction("ecb", 0);
	direction_ctr();
	ctr32();
	faults();

	printf("1..%d\n# sim-modes: %d passed, %d failed, %d expected\n", n_ok + n_bad, n_ok, n_bad,
	       CHECKS);
	return n_bad == 0 && n_ok == CHECKS ? 0 : 1;
}
