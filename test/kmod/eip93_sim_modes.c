// SPDX-License-Identifier: GPL-2.0
/*
 * eip93_sim - simulated EIP93 AES engine.  TEST-ONLY.
 *
 * The other two AES modes of the real driver, "cbc(aes-eip93)" and
 * "ecb(aes-eip93)" (registered as that driver registers them: cra_name
 * cbc(aes) / ecb(aes), priority 1500, async, needing a fallback, driver
 * only, block size 16, alignmask 0xf, IV size 16 / 0), and the engine's
 * arithmetic for all three modes, with the driver's two modelled bugs
 * (bug_direction, bug_ctr32: described in eip93_sim_core.c's header).  The
 * queue, the timing model, the counters and the other knobs are
 * eip93_sim_core.c's, the faults eip93_sim_fault.c's: a CBC or ECB request
 * goes through the same engine as a CTR one.  Each is registered only where
 * the kernel has its fallback (sim_modes_register()).
 */

#include "eip93_sim.h"

#include <crypto/aes.h>
#include <crypto/internal/skcipher.h>
#include <crypto/scatterwalk.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/moduleparam.h>
#include <linux/scatterlist.h>
#include <linux/string.h>

#define SIM_PRIORITY 1500 /* the driver's EIP93_CRA_PRIORITY */

static unsigned int sim_bug_direction = 1;
static unsigned int sim_bug_ctr32 = 1;

module_param_named(bug_direction, sim_bug_direction, uint, 0644);
MODULE_PARM_DESC(bug_direction,
		 "nonzero (default): after a decrypt on a transform, its encrypts compute a "
		 "decryption (the driver's per-transform direction bit); 0: a fixed driver");
module_param_named(bug_ctr32, sim_bug_ctr32, uint, 0644);
MODULE_PARM_DESC(bug_ctr32,
		 "nonzero (default): ctr(aes-eip93) counters wrap in their last 32 bits without "
		 "carrying into the upper 96; 0: a 128-bit counter");

int sim_modes_submit(struct skcipher_request *req, bool encrypt, bool armed)
{
	struct sim_tfm_ctx *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));

	/* The driver refuses a CBC or ECB length of partial blocks before the engine. */
	if (ctx->mode != SIM_MODE_CTR && !IS_ALIGNED(req->cryptlen, SIM_BLK))
		return -EINVAL;
	/* Its decrypt sets the SA record's inbound bit; nothing clears it. */
	if (!encrypt && armed)
		WRITE_ONCE(ctx->inbound, true);
	return 0;
}

/*
 * bug_ctr32: the bytes of @req before the last 32 bits of its counter wrap to
 * 0, when that happens inside it (0: it does not; a request starting at a low
 * word of 0 never wraps).
 */
static unsigned int sim_ctr32_head(const struct skcipher_request *req)
{
	u64 head;

	if (!req->iv)
		return 0;
	head = ((1ULL << 32) - sim_be32_lo(req->iv)) * SIM_BLK;
	return head < req->cryptlen ? (unsigned int)head : 0;
}

/*
 * bug_ctr32: @req in two pieces, the @head bytes up to the wrap with its own
 * counter, the rest with the counter's upper 96 bits as they were and its low
 * word from 0, what a 32-bit counter without carry computes.  req->iv ends as
 * that counter after the last block.
 */
static int sim_ctr32_crypt(struct skcipher_request *req, struct skcipher_request *fb,
			   unsigned int head)
{
	struct scatterlist sbuf[2], dbuf[2], *src, *dst;
	u8 upper[SIM_BLK - 4];
	int err;

	memcpy(upper, req->iv, sizeof(upper));
	skcipher_request_set_crypt(fb, req->src, req->dst, head, req->iv);
	err = crypto_skcipher_encrypt(fb);
	if (err)
		return err;
	/* The software counter carried; the engine's did not. */
	memcpy(req->iv, upper, sizeof(upper));
	memset(req->iv + sizeof(upper), 0, SIM_BLK - sizeof(upper));
	src = scatterwalk_ffwd(sbuf, req->src, head);
	dst = req->dst == req->src ? src : scatterwalk_ffwd(dbuf, req->dst, head);
	skcipher_request_set_crypt(fb, src, dst, req->cryptlen - head, req->iv);
	return crypto_skcipher_encrypt(fb);
}

int sim_modes_crypt(struct skcipher_request *req, struct skcipher_request *fb, bool encrypt,
		    bool armed)
{
	struct sim_tfm_ctx *ctx = crypto_skcipher_ctx(crypto_skcipher_reqtfm(req));
	unsigned int head = 0;

	/* The engine runs the direction the transform's SA record holds. */
	if (armed && READ_ONCE(sim_bug_direction) && READ_ONCE(ctx->inbound))
		encrypt = false;

	skcipher_request_set_tfm(fb, ctx->fallback);
	skcipher_request_set_callback(fb, CRYPTO_TFM_REQ_MAY_SLEEP, NULL, NULL);
	if (ctx->mode == SIM_MODE_CTR && armed && READ_ONCE(sim_bug_ctr32))
		head = sim_ctr32_head(req);
	if (head)
		/* CTR: the same operation both ways. */
		return sim_ctr32_crypt(req, fb, head);
	skcipher_request_set_crypt(fb, req->src, req->dst, req->cryptlen, req->iv);
	return encrypt ? crypto_skcipher_encrypt(fb) : crypto_skcipher_decrypt(fb);
}

#define SIM_CBC_FALLBACK "cbc(" EIP93_SIM_AES ")"
#define SIM_ECB_FALLBACK "ecb(" EIP93_SIM_AES ")"

static int sim_init_cbc(struct crypto_skcipher *tfm)
{
	return sim_tfm_init(tfm, SIM_MODE_CBC, SIM_CBC_FALLBACK);
}

static int sim_init_ecb(struct crypto_skcipher *tfm)
{
	return sim_tfm_init(tfm, SIM_MODE_ECB, SIM_ECB_FALLBACK);
}

static struct skcipher_alg sim_mode_algs[] = {
	{
		.setkey		= sim_setkey,
		.encrypt	= sim_encrypt,
		.decrypt	= sim_decrypt,
		.init		= sim_init_ecb,
		.exit		= sim_tfm_exit,
		.min_keysize	= AES_MIN_KEY_SIZE,
		.max_keysize	= AES_MAX_KEY_SIZE,
		.ivsize		= 0,
		.base = {
			.cra_name		= "ecb(aes)",
			.cra_driver_name	= "ecb(aes-eip93)",
			.cra_priority		= SIM_PRIORITY,
			.cra_flags		= CRYPTO_ALG_ASYNC |
						  CRYPTO_ALG_NEED_FALLBACK |
						  CRYPTO_ALG_KERN_DRIVER_ONLY,
			.cra_blocksize		= AES_BLOCK_SIZE,
			.cra_ctxsize		= sizeof(struct sim_tfm_ctx),
			.cra_alignmask		= 0xf,
			.cra_module		= THIS_MODULE,
		},
	},
	{
		.setkey		= sim_setkey,
		.encrypt	= sim_encrypt,
		.decrypt	= sim_decrypt,
		.init		= sim_init_cbc,
		.exit		= sim_tfm_exit,
		.min_keysize	= AES_MIN_KEY_SIZE,
		.max_keysize	= AES_MAX_KEY_SIZE,
		.ivsize		= AES_BLOCK_SIZE,
		.base = {
			.cra_name		= "cbc(aes)",
			.cra_driver_name	= "cbc(aes-eip93)",
			.cra_priority		= SIM_PRIORITY,
			.cra_flags		= CRYPTO_ALG_ASYNC |
						  CRYPTO_ALG_NEED_FALLBACK |
						  CRYPTO_ALG_KERN_DRIVER_ONLY,
			.cra_blocksize		= AES_BLOCK_SIZE,
			.cra_ctxsize		= sizeof(struct sim_tfm_ctx),
			.cra_alignmask		= 0xf,
			.cra_module		= THIS_MODULE,
		},
	},
};

/* The fallback each of sim_mode_algs[] computes with. */
static const char *const sim_mode_fallbacks[] = { SIM_ECB_FALLBACK, SIM_CBC_FALLBACK };
static bool sim_mode_registered[ARRAY_SIZE(sim_mode_algs)];

void sim_modes_unregister(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_mode_algs); i++) {
		if (sim_mode_registered[i])
			crypto_unregister_skcipher(&sim_mode_algs[i]);
		sim_mode_registered[i] = false;
	}
}

void sim_modes_wait_tested(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_mode_algs); i++)
		if (sim_mode_registered[i])
			sim_wait_tested(sim_mode_algs[i].base.cra_driver_name);
}

/*
 * Each mode is registered only where the kernel has its fallback (no module
 * autoloading in the test guests: a template left unloaded, as ecb is a
 * module on Debian 6.1, would fail the registration's self-test and every
 * request); a missing one is said in the kernel log.
 */
int sim_modes_register(void)
{
	struct crypto_skcipher *probe;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(sim_mode_algs); i++) {
		probe = crypto_alloc_skcipher(sim_mode_fallbacks[i], 0,
					      CRYPTO_ALG_ASYNC | CRYPTO_ALG_NEED_FALLBACK);
		if (IS_ERR(probe)) {
			pr_warn("eip93_sim: %s unavailable (%ld): %s not registered\n",
				sim_mode_fallbacks[i], PTR_ERR(probe),
				sim_mode_algs[i].base.cra_driver_name);
			continue;
		}
		crypto_free_skcipher(probe);
		err = crypto_register_skcipher(&sim_mode_algs[i]);
		if (err) {
			sim_modes_unregister();
			return err;
		}
		sim_mode_registered[i] = true;
	}
	return 0;
}
