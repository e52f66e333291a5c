// SPDX-License-Identifier: GPL-2.0
/*
 * eip93_sim - simulated EIP93 AES engine.  TEST-ONLY.
 *
 * This module is part of the eip93 provider's test rig and is never shipped
 * or loaded outside a throw-away QEMU guest.  It is licensed GPL-2.0 (unlike
 * the rest of the project) because a kernel module must be GPL to use the
 * kernel's GPL-only crypto symbols.
 *
 * It registers asynchronous skciphers that look like the real Inside Secure
 * EIP93 driver's AES algorithms to the crypto API (same cra_name,
 * cra_driver_name, priority, flags, block size, alignmask, IV size):
 * "ctr(aes-eip93)", "cbc(aes-eip93)" and "ecb(aes-eip93)", so the names the
 * provider uses, "ctr(aes-eip93)" itself (the CTR-only composition, an AF_ALG
 * skcipher), "cbc(aes-eip93)" and e.g.
 * "gcm_base(ctr(aes-eip93),ghash-generic)", bind in a guest that has no such
 * hardware.  The arithmetic is done by the kernel's software templates of the
 * same mode over EIP93_SIM_AES ("ctr(aes-generic)", "cbc(aes-generic)",
 * "ecb(aes-generic)"); requests of all three complete from one ordered
 * workqueue (the one engine), so callers see -EINPROGRESS and a later
 * completion as with the hardware, and every knob below applies to all three.
 * As the driver does, a CBC or ECB request whose length is not whole blocks
 * is refused with -EINVAL at once (never queued or counted).  cbc and ecb
 * are registered only where their fallback template is present (the guests
 * load no module on demand; the rig loads cbc and ecb at boot).
 *
 * The module is this file (ctr(aes-eip93), the queue and the knobs below but
 * the bugs and the faults), eip93_sim_modes.c (cbc(aes-eip93),
 * ecb(aes-eip93), the arithmetic and the driver's bugs) and
 * eip93_sim_fault.c (the keystream faults).
 *
 * Parameters (/sys/module/eip93_sim/parameters/):
 *   ops       requests completed by the simulated engine, whatever their
 *             status (stand-in for the engine's interrupt counter); writable
 *             to reset.  The kernel's self-tests issue hundreds of requests
 *             at registration and at the first instantiation of a template
 *             around this algorithm: compare deltas, not absolute values.
 *   bytes     payload bytes of requests computed successfully; writable.
 *   held      requests currently held by "stall" (read-only).
 *   corrupt   nonzero: flip the lowest bit of the last output byte of every
 *             request (inside gcm this alters the ciphertext, or the hash
 *             key / tag for requests without payload).
 *   delay_ms  delay every request by this many milliseconds (capped at
 *             10 s); requests are processed one at a time, as by one ring.
 *   latency_us, rate
 *             the timing model of one engine: requests wait in one FIFO
 *             queue and are served one at a time, each taking
 *             latency_us + bytes / rate (rate in bytes per second) from the
 *             moment the engine takes it up, however long the arithmetic
 *             itself takes; the completion comes when that time is over
 *             (an hrtimer sleep of the queue's worker).  0 = no latency /
 *             as fast as the arithmetic (the default).  Capped at 10 s per
 *             request.  Set them after the registration and after the first
 *             bind of a template (their self-tests issue hundreds of
 *             requests).  busy_us (read-only) sums the service times.
 *   bug_direction
 *             the real driver's per-transform direction bug (default 1,
 *             eip93_sim_modes.c): its decrypt sets the inbound direction in
 *             the transform's SA record and its encrypt never clears it, so
 *             once a transform has decrypted, every later encrypt on it
 *             (one AF_ALG bound socket, one /dev/crypto session) computes a
 *             decryption: wrong CBC and ECB output (CTR is the same
 *             operation both ways: unaffected).  A decrypt marks the
 *             transform from its submission (a queued encrypt is hit too);
 *             the mark takes effect while bug_direction is nonzero (0: every
 *             request computes its own direction, a fixed driver).  Only
 *             after the registration: its self-tests always pass.
 *   bug_ctr32 the engine's 32-bit counter without carry (default 1,
 *             eip93_sim_modes.c): in a ctr(aes-eip93) request whose
 *             counter's last 32 bits wrap to 0 inside the request, the
 *             blocks after the wrap are computed with the upper 96 bits of
 *             the counter unchanged (a pure 32-bit wrap), and the IV
 *             returned is that counter.  A request that starts at a low
 *             word of 0 (the caller split the message at the wrap and
 *             carried) is computed right.  0: the full 128-bit counter.
 *             Only after the registration; gcm_base's requests (counters 0,
 *             1, 2, ... for at most 2^32 - 2 blocks) never wrap.
 *   fault, fault_block, fault_page, fault_after, fault_layout, faults
 *             keystream faults (eip93_sim_fault.c) of a request that
 *             carries payload, starting after fault_after such requests
 *             (counted down), on every one after that.  fault_layout picks
 *             the requests and where their payload starts.  0 (default): by
 *             counter, ctr(aes-eip93) requests only; the request's
 *             layout comes from the last 32 bits of its counter block (big
 *             endian): 1 (J0) is gcm_base's, the 16-byte tag-mask block
 *             E_K(J0) followed by the payload; 2 (J0 + 1) is the CTR-only
 *             composition's (an AF_ALG skcipher on ctr(aes-eip93), or a
 *             /dev/crypto session on it, covering the payload alone).  Requests with any
 *             other counter (gcm's hash-key request at setkey has 0) are
 *             never touched and do not count down fault_after, but for a
 *             continuation (below).  1: every request of the three
 *             algorithms (after the registration), the payload from its
 *             byte 0, each request a message of its own (no continuation):
 *             plain AES-CTR with any counter, gcm_base's hash-key request
 *             and CBC and ECB requests too.  For CBC and ECB a "keystream"
 *             fault is the same change of the output (a flipped output bit,
 *             the input left in place, ...), not an error propagated through
 *             the chaining.  "Payload block" counts from the first payload
 *             byte in every layout.
 *             fault=1 flips a bit in payload block fault_block (-1: the
 *             last, -2: a random middle block per request); fault=2 writes
 *             nothing (the output keeps the input: keystream zero); fault=3
 *             leaves the 16 bytes before the first page boundary of the
 *             destination after the first payload byte unwritten (stale
 *             input); fault=4 flips a bit in the first of the last 16
 *             payload bytes (a fault by bytes at the end of the buffer: with
 *             a partial last block, in the block before it); fault=5
 *             ("tagmask") flips a bit in the first block of the request:
 *             under gcm_base that is the tag mask, so the ciphertext is
 *             right and the tag wrong (decrypting: a valid tag refused);
 *             under CTR-only it is the first payload block.
 *             The page faults land at a boundary: where one entry of the
 *             request's scatterlist ends and the next begins inside the
 *             payload (after its first byte, before its end; gcm_base's
 *             tag-mask block is an entry of its own, its end is not one),
 *             or the join where a request continues the previous one's
 *             message on the same tfm (same nonce, the counter where that
 *             one stopped: /dev/crypto's bounce path cuts a message into
 *             page-sized requests); they are numbered through the message.
 *             fault_page = k > 0 (default 1) names the k-th such boundary
 *             and the bytes after it, -k the bytes before it (0: none).
 *             fault=6 flips a bit of the output byte computed from the
 *             source byte right after (k) or right before (-k) boundary k
 *             of req->src (a DMA read fault: the engine read that byte
 *             wrong); fault=7 the same
 *             at boundary k of req->dst (the write landed wrong; in place
 *             the boundaries are the same).  fault=8 ("skip") leaves 16
 *             bytes unwritten: they keep what the destination held before
 *             the request (saved first; in place that is the input), as a
 *             DMA that skipped a descriptor would: with fault_page = 0
 *             payload block fault_block (as fault=1), with k the 16 bytes
 *             after destination boundary k, with -k the 16 before it (never
 *             before the payload).  A request without that block or
 *             boundary is not faulted (and not counted); nor are the bytes
 *             before a join (the request that wrote them has completed).
 *             A continuation carries only these boundary faults (6, 7, 8
 *             with fault_page), when its message's first request did.
 *             faults (read-only, writable to reset) counts faulted requests.
 *   fail      nonzero: complete every request with -EIO without computing.
 *   stall     nonzero: hold requests without completing them; writing 0
 *             releases the held requests, which then complete normally.
 *             Ignored while the module registers its algorithms, until
 *             their self-tests are over (they would otherwise never finish;
 *             the same holds for the bugs and the faults); corrupt,
 *             delay_ms and fail do apply to that self-test (e.g. insmod with
 *             fail=1 yields an algorithm that failed its self-test).
 *
 * A request in flight holds a tfm, which holds a reference on this module,
 * so rmmod is refused (busy) while requests are stalled; unstall first.
 * Module exit nevertheless completes anything still held with -ESHUTDOWN.
 */

#include "eip93_sim.h"

#include <crypto/aes.h>
#include <crypto/internal/skcipher.h>
#include <crypto/scatterwalk.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/random.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#define SIM_MAX_DELAY_MS 10000U

struct sim_req_ctx {
	struct work_struct work;
	struct list_head held;
	struct skcipher_request *req;
	bool encrypt;
	/* Must be last: the fallback's request context follows it. */
	struct skcipher_request fallback_req;
};

static atomic64_t sim_ops = ATOMIC64_INIT(0);
static atomic64_t sim_bytes = ATOMIC64_INIT(0);
static unsigned int sim_corrupt;
static unsigned int sim_delay_ms;
static unsigned int sim_fail;
static unsigned int sim_stall;
static unsigned int sim_latency_us;
static unsigned int sim_rate;
static atomic64_t sim_busy_us = ATOMIC64_INIT(0);

static DEFINE_SPINLOCK(sim_lock); /* guards the four below */
static LIST_HEAD(sim_held);
static unsigned int sim_nheld;
static bool sim_armed; /* registered and self-tested: stall, the bugs and the faults apply */
static bool sim_exiting;
static struct workqueue_struct *sim_wq;

/* ---- module parameters ------------------------------------------------ */

static int sim_counter_set(const char *val, const struct kernel_param *kp)
{
	u64 v;
	int err = kstrtou64(val, 0, &v);

	if (err)
		return err;
	atomic64_set(kp->arg, v);
	return 0;
}

static int sim_counter_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%llu\n", (unsigned long long)atomic64_read(kp->arg));
}

const struct kernel_param_ops sim_counter_ops = {
	.set = sim_counter_set,
	.get = sim_counter_get,
};

static int sim_held_get(char *buf, const struct kernel_param *kp)
{
	unsigned int n;

	spin_lock_bh(&sim_lock);
	n = sim_nheld;
	spin_unlock_bh(&sim_lock);
	return scnprintf(buf, PAGE_SIZE, "%u\n", n);
}

static const struct kernel_param_ops sim_held_ops = {
	.get = sim_held_get,
};

static int sim_stall_set(const char *val, const struct kernel_param *kp)
{
	struct sim_req_ctx *rctx, *tmp;
	unsigned int v;
	LIST_HEAD(release);
	int err = kstrtouint(val, 0, &v);

	if (err)
		return err;

	spin_lock_bh(&sim_lock);
	WRITE_ONCE(sim_stall, v);
	if (!v && sim_wq && !sim_exiting) {
		list_splice_init(&sim_held, &release);
		sim_nheld = 0;
	}
	spin_unlock_bh(&sim_lock);

	list_for_each_entry_safe(rctx, tmp, &release, held)
	{
		list_del_init(&rctx->held);
		queue_work(sim_wq, &rctx->work);
	}
	return 0;
}

static const struct kernel_param_ops sim_stall_ops = {
	.set = sim_stall_set,
	.get = param_get_uint,
};

module_param_cb(ops, &sim_counter_ops, &sim_ops, 0644);
MODULE_PARM_DESC(ops, "requests completed by the simulated engine (any status)");
module_param_cb(bytes, &sim_counter_ops, &sim_bytes, 0644);
MODULE_PARM_DESC(bytes, "payload bytes computed successfully");
module_param_cb(held, &sim_held_ops, NULL, 0444);
MODULE_PARM_DESC(held, "requests currently held by stall");
module_param_named(corrupt, sim_corrupt, uint, 0644);
MODULE_PARM_DESC(corrupt, "nonzero: flip a bit in each request's output");
module_param_named(delay_ms, sim_delay_ms, uint, 0644);
MODULE_PARM_DESC(delay_ms, "delay each request by this many ms (max 10000)");
module_param_named(fail, sim_fail, uint, 0644);
MODULE_PARM_DESC(fail, "nonzero: complete each request with -EIO");
module_param_cb(stall, &sim_stall_ops, &sim_stall, 0644);
MODULE_PARM_DESC(stall, "nonzero: hold requests; 0 releases them");
module_param_named(latency_us, sim_latency_us, uint, 0644);
MODULE_PARM_DESC(latency_us, "timing model: fixed time per request in microseconds (0: none)");
module_param_named(rate, sim_rate, uint, 0644);
MODULE_PARM_DESC(rate,
		 "timing model: engine throughput in bytes per second (0: as fast as it computes)");
module_param_cb(busy_us, &sim_counter_ops, &sim_busy_us, 0444);
MODULE_PARM_DESC(busy_us, "timing model: sum of the modelled service times (us)");

/* ---- the simulated engine -------------------------------------------- */

/* The timing model's service time of one request, in ns (0: none). */
static u64 sim_service_ns(unsigned int bytes)
{
	u64 ns = (u64)READ_ONCE(sim_latency_us) * NSEC_PER_USEC;
	unsigned int rate = READ_ONCE(sim_rate);

	if (rate)
		ns += div64_u64((u64)bytes * NSEC_PER_SEC, rate);
	return min_t(u64, ns, (u64)SIM_MAX_DELAY_MS * NSEC_PER_MSEC);
}

/*
 * Hold the (only) engine until @start + @ns: the ordered workqueue's single
 * worker is the engine, so the next request waits in the queue meanwhile.
 */
static void sim_serve_until(ktime_t start, u64 ns)
{
	ktime_t end = ktime_add_ns(start, ns);

	if (!ns)
		return;
	atomic64_add(div_u64(ns, NSEC_PER_USEC), &sim_busy_us);
	while (ktime_before(ktime_get(), end)) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule_hrtimeout(&end, HRTIMER_MODE_ABS);
	}
}

static void sim_complete(struct skcipher_request *req, int err)
{
	atomic64_inc(&sim_ops);
	/* Hardware drivers complete from (soft)interrupt context. */
	local_bh_disable();
	skcipher_request_complete(req, err);
	local_bh_enable();
}

static void sim_work(struct work_struct *work)
{
	struct sim_req_ctx *rctx = container_of(work, struct sim_req_ctx, work);
	struct skcipher_request *req = rctx->req;
	struct sim_tfm_ctx *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	struct skcipher_request *fb = &rctx->fallback_req;
	struct sim_fault_state fault;
	unsigned int delay;
	bool exiting, armed;
	ktime_t start;
	int err;

	spin_lock_bh(&sim_lock);
	exiting = sim_exiting;
	armed = sim_armed;
	if (!exiting && armed && READ_ONCE(sim_stall)) {
		list_add_tail(&rctx->held, &sim_held);
		sim_nheld++;
		spin_unlock_bh(&sim_lock);
		return;
	}
	spin_unlock_bh(&sim_lock);

	if (exiting) {
		sim_complete(req, -ESHUTDOWN);
		return;
	}

	start = ktime_get();
	delay = READ_ONCE(sim_delay_ms);
	if (delay)
		msleep(min(delay, SIM_MAX_DELAY_MS));

	if (READ_ONCE(sim_fail)) {
		sim_complete(req, -EIO);
		return;
	}

	sim_fault_decide(req, armed, ctx->mode, &ctx->stream, &fault);
	err = sim_modes_crypt(req, fb, rctx->encrypt, armed);

	if (!err) {
		atomic64_add(req->cryptlen, &sim_bytes);
		if (READ_ONCE(sim_corrupt) && req->cryptlen) {
			u8 b;

			scatterwalk_map_and_copy(&b, req->dst, req->cryptlen - 1, 1, 0);
			b ^= 0x01;
			scatterwalk_map_and_copy(&b, req->dst, req->cryptlen - 1, 1, 1);
		}
		sim_fault_apply(req, &fault);
	}
	sim_fault_done(&fault);
	sim_serve_until(start, sim_service_ns(req->cryptlen));
	sim_complete(req, err);
}

static int sim_queue(struct skcipher_request *req, bool encrypt)
{
	struct sim_req_ctx *rctx = skcipher_request_ctx(req);
	int err = sim_modes_submit(req, encrypt, READ_ONCE(sim_armed));

	if (err)
		return err;
	rctx->req = req;
	rctx->encrypt = encrypt;
	INIT_LIST_HEAD(&rctx->held);
	INIT_WORK(&rctx->work, sim_work);
	queue_work(sim_wq, &rctx->work);
	return -EINPROGRESS;
}

int sim_encrypt(struct skcipher_request *req)
{
	return sim_queue(req, true);
}

int sim_decrypt(struct skcipher_request *req)
{
	return sim_queue(req, false);
}

int sim_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen)
{
	struct sim_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);

	if (keylen != AES_KEYSIZE_128 && keylen != AES_KEYSIZE_192 && keylen != AES_KEYSIZE_256)
		return -EINVAL;

	crypto_skcipher_clear_flags(ctx->fallback, CRYPTO_TFM_REQ_MASK);
	crypto_skcipher_set_flags(ctx->fallback,
				  crypto_skcipher_get_flags(tfm) & CRYPTO_TFM_REQ_MASK);
	return crypto_skcipher_setkey(ctx->fallback, key, keylen);
}

int sim_tfm_init(struct crypto_skcipher *tfm, enum sim_mode mode, const char *name)
{
	struct sim_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);
	struct crypto_skcipher *fallback;

	/* Synchronous, and not itself in need of a fallback. */
	fallback = crypto_alloc_skcipher(name, 0, CRYPTO_ALG_ASYNC | CRYPTO_ALG_NEED_FALLBACK);
	if (IS_ERR(fallback))
		return PTR_ERR(fallback);

	memset(ctx, 0, sizeof(*ctx));
	ctx->fallback = fallback;
	ctx->mode = mode;
	crypto_skcipher_set_reqsize(tfm,
				    sizeof(struct sim_req_ctx) + crypto_skcipher_reqsize(fallback));
	return 0;
}

void sim_tfm_exit(struct crypto_skcipher *tfm)
{
	struct sim_tfm_ctx *ctx = crypto_skcipher_ctx(tfm);

	crypto_free_skcipher(ctx->fallback);
}

static int sim_init_ctr(struct crypto_skcipher *tfm)
{
	return sim_tfm_init(tfm, SIM_MODE_CTR, "ctr(" EIP93_SIM_AES ")");
}

static struct skcipher_alg sim_alg = {
	.setkey		= sim_setkey,
	.encrypt	= sim_encrypt,
	.decrypt	= sim_decrypt,
	.init		= sim_init_ctr,
	.exit		= sim_tfm_exit,
	.min_keysize	= AES_MIN_KEY_SIZE,
	.max_keysize	= AES_MAX_KEY_SIZE,
	.ivsize		= AES_BLOCK_SIZE,
	.chunksize	= AES_BLOCK_SIZE,
	.base = {
		.cra_name		= "ctr(aes)",
		.cra_driver_name	= "ctr(aes-eip93)",
		.cra_priority		= 1500,
		.cra_flags		= CRYPTO_ALG_ASYNC |
					  CRYPTO_ALG_NEED_FALLBACK |
					  CRYPTO_ALG_KERN_DRIVER_ONLY,
		.cra_blocksize		= 1,
		.cra_ctxsize		= sizeof(struct sim_tfm_ctx),
		.cra_alignmask		= 0xf,
		.cra_module		= THIS_MODULE,
	},
};

void sim_wait_tested(const char *driver)
{
	struct crypto_skcipher *tfm = crypto_alloc_skcipher(driver, 0, 0);

	if (!IS_ERR(tfm))
		crypto_free_skcipher(tfm);
}

static int __init sim_init(void)
{
	int err;

	sim_wq = alloc_ordered_workqueue("eip93_sim", 0);
	if (!sim_wq)
		return -ENOMEM;

	err = crypto_register_skcipher(&sim_alg);
	if (!err) {
		err = sim_modes_register();
		if (err)
			crypto_unregister_skcipher(&sim_alg);
	}
	if (err) {
		destroy_workqueue(sim_wq);
		sim_wq = NULL;
		return err;
	}

	/* Armed only once every self-test is over (7.x runs them after the registration). */
	sim_wait_tested(sim_alg.base.cra_driver_name);
	sim_modes_wait_tested();
	spin_lock_bh(&sim_lock);
	sim_armed = true;
	spin_unlock_bh(&sim_lock);
	return 0;
}

static void __exit sim_exit(void)
{
	struct sim_req_ctx *rctx, *tmp;
	LIST_HEAD(leftover);

	sim_modes_unregister();
	crypto_unregister_skcipher(&sim_alg);

	spin_lock_bh(&sim_lock);
	sim_exiting = true;
	list_splice_init(&sim_held, &leftover);
	sim_nheld = 0;
	spin_unlock_bh(&sim_lock);

	list_for_each_entry_safe(rctx, tmp, &leftover, held)
	{
		list_del_init(&rctx->held);
		sim_complete(rctx->req, -ESHUTDOWN);
	}

	/* Waits for a work item that is still returning from a completion. */
	destroy_workqueue(sim_wq);
	sim_wq = NULL;
}

module_init(sim_init);
module_exit(sim_exit);

MODULE_DESCRIPTION("Simulated EIP93 ctr/cbc/ecb(aes) engine for tests (not for production)");
/* GPL: required for the GPL-only crypto API symbols; test-only module. */
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: ctr cbc ecb");
