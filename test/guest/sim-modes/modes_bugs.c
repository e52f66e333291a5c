// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-sim-modes-check, the modelled driver bugs and the faults (3, 4 and 5
 * of modes_check.c's list): bug_direction on CBC, ECB and CTR transforms,
 * bug_ctr32 around a 32-bit counter wrap, fault_layout's faults of CBC, ECB
 * and plain-CTR requests.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "modes_check.h"

/* ---- 3. bug_direction ---------------------------------------------------- */

void direction(const char *mode, int ivd)
{
	const unsigned char *v = ivd ? iv : NULL;
	unsigned char dec[64], enc[64], encd[64];
	char drv[32];
	struct tfm t, u;
	int e, e2, op2;

	snprintf(drv, sizeof(drv), "%s(aes-eip93)", mode);
	fill(key, 32);
	fill(iv, BLK);
	fill(in, 128); /* a plaintext P and a ciphertext C */
	ref(mode, key, 32, 0, v, in + 64, 64, dec);
	ref(mode, key, 32, 1, v, in, 64, enc);
	ref(mode, key, 32, 0, v, in, 64, encd); /* what decrypting P gives */

	set_knob("bug_direction", 1);
	e = tfm_open(&t, drv, key, 32);
	e = e ? e : op_crypt(t.op, 0, v, in + 64, 64, out);
	check(!e && !memcmp(out, dec, 64), "bug_direction=1, %s: a decrypt is right (%d)", drv, e);
	e = e ? e : op_crypt(t.op, 1, v, in, 64, out);
	check(!e && memcmp(out, enc, 64) != 0 && !memcmp(out, encd, 64),
	      "bug_direction=1, %s: an encrypt after it on the same socket is wrong: it computes "
	      "the decryption (%d)",
	      drv, e);
	op2 = e ? -1 : accept4(t.fd, NULL, NULL, SOCK_CLOEXEC);
	e2 = op2 < 0 ? -errno : op_crypt(op2, 1, v, in, 64, out);
	check(!e2 && !memcmp(out, encd, 64),
	      "bug_direction=1, %s: another socket accepted from the same bound socket (the same "
	      "transform) still decrypts (%d)",
	      drv, e2);
	if (op2 >= 0)
		close(op2);
	set_knob("bug_direction", 0);
	e = e ? e : op_crypt(t.op, 1, v, in, 64, out);
	check(!e && !memcmp(out, enc, 64),
	      "bug_direction=0, %s: the same transform now encrypts right (%d)", drv, e);
	tfm_close(&t);
	e = tfm_open(&t, drv, key, 32);
	e = e ? e : op_crypt(t.op, 0, v, in + 64, 64, out);
	e = e ? e : memcmp(out, dec, 64) ? -EBADMSG : 0;
	e = e ? e : op_crypt(t.op, 1, v, in, 64, out);
	check(!e && !memcmp(out, enc, 64),
	      "bug_direction=0, %s: decrypt then encrypt on one transform, both right (%d)", drv,
	      e);
	tfm_close(&t);

	set_knob("bug_direction", 1);
	e = tfm_open(&t, drv, key, 32);
	e2 = tfm_open(&u, drv, key, 32);
	e = e ? e : e2;
	e = e ? e : op_crypt(t.op, 0, v, in + 64, 64, out);
	e = e ? e : memcmp(out, dec, 64) ? -EBADMSG : 0;
	e = e ? e : op_crypt(u.op, 1, v, in, 64, out);
	check(!e && !memcmp(out, enc, 64),
	      "bug_direction=1, %s: decrypt on one transform, encrypt on another: both right (%d)",
	      drv, e);
	tfm_close(&t);
	tfm_close(&u);
}

/* CTR is the same operation both ways: an encrypt after a decrypt stays right. */
void direction_ctr(void)
{
	struct tfm t;
	int e;

	fill(key, 16);
	fill(iv, BLK);
	fill(in, 128);
	ref("ctr", key, 16, 1, iv, in, 64, want);
	ref("ctr", key, 16, 1, iv, in + 64, 64, alt);
	set_knob("bug_direction", 1);
	e = tfm_open(&t, "ctr(aes-eip93)", key, 16);
	e = e ? e : op_crypt(t.op, 0, iv, in + 64, 64, out);
	e = e ? e : memcmp(out, alt, 64) ? -EBADMSG : 0;
	e = e ? e : op_crypt(t.op, 1, iv, in, 64, out);
	check(!e && !memcmp(out, want, 64),
	      "bug_direction=1, ctr(aes-eip93): decrypt then encrypt on one transform, both right "
	      "(%d)",
	      e);
	tfm_close(&t);
}

/* ---- 4. bug_ctr32 --------------------------------------------------------- */

/* iv: random upper 96 bits, low word @lo. */
static void ctr_iv(unsigned char *v, uint32_t lo)
{
	fill(v, BLK - 4);
	v[12] = (unsigned char)(lo >> 24);
	v[13] = (unsigned char)(lo >> 16);
	v[14] = (unsigned char)(lo >> 8);
	v[15] = (unsigned char)lo;
}

/* The 128-bit counter @v plus one at its end (big endian): the caller's carry. */
static void ctr_add(unsigned char *v, unsigned int n)
{
	for (int i = BLK - 1; i >= 0 && n; i--) {
		n += v[i];
		v[i] = (unsigned char)n;
		n >>= 8;
	}
}

void ctr32(void)
{
	unsigned char v[BLK], v0[BLK];
	int e, e2;

	fill(key, 16);
	fill(in, 64);
	ctr_iv(v, 0xfffffffe);
	memcpy(v0, v, BLK);
	memset(v0 + 12, 0, 4); /* the counter after the wrap, not carried */
	ref("ctr", key, 16, 1, v, in, 64, want);
	ref("ctr", key, 16, 1, v0, in + 32, 32, alt);

	set_knob("bug_ctr32", 1);
	e = crypt1("ctr", "aes-eip93", key, 16, 1, v, in, 64, out);
	check(!e && !memcmp(out, want, 32) && memcmp(out + 32, want + 32, 16) != 0 &&
		      memcmp(out + 48, want + 48, 16) != 0,
	      "bug_ctr32=1: counter low word 0xfffffffe over 4 blocks: blocks 0, 1 right, 2 and 3 "
	      "wrong (%d)",
	      e);
	check(!e && !memcmp(out + 32, alt, 32),
	      "bug_ctr32=1: blocks 2, 3 are those of the counter wrapped in 32 bits, its upper 96 "
	      "bits not carried");
	e = crypt1("ctr", "aes-eip93", key, 16, 1, v, in, 32, out);
	memcpy(v0, v, BLK);
	ctr_add(v0, 2); /* the caller carries: low word 0, upper 96 bits + 1 */
	e2 = crypt1("ctr", "aes-eip93", key, 16, 1, v0, in + 32, 32, out + 32);
	check(!e && !e2 && !memcmp(out, want, 64),
	      "bug_ctr32=1: the same message split by the caller at the wrap (second request from "
	      "low word 0, carried) is right (%d, %d)",
	      e, e2);
	ctr_iv(v, 0xfffffffc);
	ref("ctr", key, 16, 1, v, in, 64, want);
	e = crypt1("ctr", "aes-eip93", key, 16, 1, v, in, 64, out);
	check(!e && !memcmp(out, want, 64),
	      "bug_ctr32=1: 4 blocks from 0xfffffffc (ending at 0xffffffff, no wrap inside) are "
	      "right (%d)",
	      e);
	ctr_iv(v, 0xffffffff);
	memcpy(v0, v, BLK);
	memset(v0 + 12, 0, 4);
	ref("ctr", key, 16, 1, v, in, 24, want);
	ref("ctr", key, 16, 1, v0, in + 16, 8, alt);
	e = crypt1("ctr", "aes-eip93", key, 16, 1, v, in, 24, out);
	check(!e && !memcmp(out, want, 16) && !memcmp(out + 16, alt, 8) &&
		      memcmp(out + 16, want + 16, 8) != 0,
	      "bug_ctr32=1: 24 bytes from 0xffffffff: the partial block after the wrap is the "
	      "uncarried counter's (%d)",
	      e);
	set_knob("bug_ctr32", 0);
	ctr_iv(v, 0xfffffffe);
	ref("ctr", key, 16, 1, v, in, 64, want);
	e = crypt1("ctr", "aes-eip93", key, 16, 1, v, in, 64, out);
	check(!e && !memcmp(out, want, 64),
	      "bug_ctr32=0: 4 blocks from 0xfffffffe equal ctr(%s) (%d)", ref_aes, e);
	set_knob("bug_ctr32", 1);
}

/* ---- 5. fault_layout ------------------------------------------------------ */

/* One request of @mode (CTR with counter low word 0x10000000) faulted or not: its verdict. */
static void fault_one(const char *desc, const char *mode, size_t len, size_t out_off, int faulted,
		      size_t lo, size_t hi)
{
	unsigned char *o = out + out_off;
	const unsigned char *v = strcmp(mode, "ecb") ? iv : NULL;
	long long f0 = knob("faults");
	unsigned int bits;
	size_t at;
	int e;

	if (!strcmp(mode, "ctr"))
		ctr_iv(iv, 0x10000000);
	ref(mode, key, 16, 1, v, in, len, want);
	e = crypt1(mode, "aes-eip93", key, 16, 1, v, in, len, o);
	bits = diffbits(o, want, len, &at);
	if (faulted)
		check(!e && bits == 1 && at >= lo && at < hi && knob("faults") == f0 + 1,
		      "%s: %s, %zu bytes: one bit flipped at byte %zu (%u bits differ, first at "
		      "%zu; faults +%lld)",
		      desc, mode, len, lo, bits, at, knob("faults") - f0);
	else
		check(!e && bits == 0 && knob("faults") == f0,
		      "%s: %s, %zu bytes: not faulted (%u bits differ; faults +%lld)", desc, mode,
		      len, bits, knob("faults") - f0);
}

void faults(void)
{
	long long f0;
	int e;

	fill(key, 16);
	fill(iv, BLK);
	fill(in, 2 * PAGE);
	set_knob("fault_block", 0);
	set_knob("fault_after", 0);
	set_knob("fault", 1);
	fault_one("fault_layout=0, fault=1", "cbc", 64, 0, 0, 0, 0);
	fault_one("fault_layout=0, fault=1 (counter 0x10000000)", "ctr", 64, 0, 0, 0, 0);
	set_knob("fault_layout", 1);
	fault_one("fault_layout=1, fault=1 fault_block=0", "cbc", 64, 0, 1, 0, BLK);
	fault_one("fault_layout=1, fault=1 fault_block=0 (counter 0x10000000)", "ctr", 64, 0, 1, 0,
		  BLK);
	set_knob("fault_block", -1);
	fault_one("fault_layout=1, fault=1 fault_block=-1", "ecb", 64, 0, 1, 48, 64);
	set_knob("fault_block", 0);
	set_knob("fault", 7);
	fault_one("fault_layout=1, fault=7 fault_page=1 (destination 256 bytes into a page)", "cbc",
		  2 * PAGE, 256, 1, PAGE - 256, PAGE - 255);
	set_knob("fault", 6);
	fault_one("fault_layout=1, fault=6 fault_page=1 (AF_ALG's source pages)", "ctr", 2 * PAGE,
		  0, 1, PAGE, PAGE + 1);

	set_knob("fault", 2);
	f0 = knob("faults");
	e = crypt1("cbc", "aes-eip93", key, 16, 1, iv, in, 64, out);
	check(!e && !memcmp(out, in, 64) && knob("faults") == f0 + 1,
	      "fault_layout=1, fault=2: a cbc request writes nothing, the input stays (%d)", e);
	set_knob("fault", 8);
	set_knob("fault_page", 0);
	set_knob("fault_block", 1);
	ref("cbc", key, 16, 1, iv, in, 64, want);
	memset(out, 0xa5, 64);
	f0 = knob("faults");
	e = crypt1("cbc", "aes-eip93", key, 16, 1, iv, in, 64, out);
	memset(want + BLK, 0xa5, BLK);
	check(!e && !memcmp(out, want, 64) && knob("faults") == f0 + 1,
	      "fault_layout=1, fault=8 fault_page=0 fault_block=1: a cbc request leaves block 1 as "
	      "the destination held it, the rest right (%d)",
	      e);
	set_knob("fault", 1);
	set_knob("fault_block", 0);
	set_knob("fault_after", 1);
	fault_one("fault_layout=1, fault=1 fault_after=1, first request", "cbc", 64, 0, 0, 0, 0);
	fault_one("fault_layout=1, fault=1 fault_after=1, second request", "cbc", 64, 0, 1, 0, BLK);

	set_knob("fault", 0);
	set_knob("fault_layout", 0);
	set_knob("fault_page", 1);
	set_knob("fault_after", 0);
}
