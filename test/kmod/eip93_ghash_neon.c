// SPDX-License-Identifier: GPL-2.0
/*
 * eip93_ghash_neon - a stand-in for arm64's "ghash-neon".  TEST-ONLY.
 *
 * Part of the eip93 provider's test rig, never shipped: it registers a
 * GHASH shash under the driver name the arm64 NEON module (ghash-ce) uses,
 * cra_name "ghash", driver "ghash-neon", priority 150, computing through the
 * kernel's "ghash-generic".  So on an x86_64 guest
 * "gcm_base(ctr(aes-eip93),ghash-neon)" binds exactly when this module is
 * loaded, and the provider's composition order (neon, generic, lib) is
 * testable.  It is not faster than ghash-generic: it only carries the name.
 * GPL-2.0 like the simulated driver (GPL-only crypto API symbols).
 *
 * Parameter (/sys/module/eip93_ghash_neon/parameters/): ops, update calls
 * (writable to reset), to show that a composition really uses it.
 */

#include <crypto/internal/hash.h>
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#define GHASH_BLOCK 16
#define GHASH_DIGEST 16
#define CHILD_DESC_MAX 64 /* ghash-generic's desc is 20 bytes */

struct gn_tfm_ctx {
	struct crypto_shash *child;
};

struct gn_desc_ctx {
	struct shash_desc child; /* followed by the child's own context */
	u8 child_ctx[CHILD_DESC_MAX];
};

static atomic64_t gn_ops = ATOMIC64_INIT(0);

static int gn_ops_set(const char *val, const struct kernel_param *kp)
{
	u64 v;
	int err = kstrtou64(val, 0, &v);

	if (err)
		return err;
	atomic64_set(&gn_ops, v);
	return 0;
}

static int gn_ops_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%llu\n", (unsigned long long)atomic64_read(&gn_ops));
}

static const struct kernel_param_ops gn_ops_ops = { .set = gn_ops_set, .get = gn_ops_get };
module_param_cb(ops, &gn_ops_ops, NULL, 0644);
MODULE_PARM_DESC(ops, "update calls through this GHASH");

static struct shash_desc *gn_child(struct shash_desc *desc)
{
	struct gn_desc_ctx *d = shash_desc_ctx(desc);
	struct gn_tfm_ctx *ctx = crypto_shash_ctx(desc->tfm);

	d->child.tfm = ctx->child;
	return &d->child;
}

static int gn_init(struct shash_desc *desc)
{
	return crypto_shash_init(gn_child(desc));
}

static int gn_update(struct shash_desc *desc, const u8 *src, unsigned int len)
{
	atomic64_inc(&gn_ops);
	return crypto_shash_update(gn_child(desc), src, len);
}

static int gn_final(struct shash_desc *desc, u8 *dst)
{
	return crypto_shash_final(gn_child(desc), dst);
}

static int gn_setkey(struct crypto_shash *tfm, const u8 *key, unsigned int keylen)
{
	struct gn_tfm_ctx *ctx = crypto_shash_ctx(tfm);

	return crypto_shash_setkey(ctx->child, key, keylen);
}

static int gn_init_tfm(struct crypto_shash *tfm)
{
	struct gn_tfm_ctx *ctx = crypto_shash_ctx(tfm);
	struct crypto_shash *child = crypto_alloc_shash("ghash-generic", 0, 0);

	if (IS_ERR(child))
		return PTR_ERR(child);
	if (crypto_shash_descsize(child) > CHILD_DESC_MAX) {
		crypto_free_shash(child);
		return -EINVAL;
	}
	ctx->child = child;
	return 0;
}

static void gn_exit_tfm(struct crypto_shash *tfm)
{
	struct gn_tfm_ctx *ctx = crypto_shash_ctx(tfm);

	crypto_free_shash(ctx->child);
}

static struct shash_alg gn_alg = {
	.digestsize	= GHASH_DIGEST,
	.init		= gn_init,
	.update		= gn_update,
	.final		= gn_final,
	.setkey		= gn_setkey,
	.init_tfm	= gn_init_tfm,
	.exit_tfm	= gn_exit_tfm,
	.descsize	= sizeof(struct gn_desc_ctx),
	.base = {
		.cra_name		= "ghash",
		.cra_driver_name	= "ghash-neon",
		.cra_priority		= 150,
		.cra_blocksize		= GHASH_BLOCK,
		.cra_ctxsize		= sizeof(struct gn_tfm_ctx),
		.cra_module		= THIS_MODULE,
	},
};

static int __init gn_mod_init(void)
{
	return crypto_register_shash(&gn_alg);
}

static void __exit gn_mod_exit(void)
{
	crypto_unregister_shash(&gn_alg);
}

module_init(gn_mod_init);
module_exit(gn_mod_exit);

MODULE_DESCRIPTION("Test-only GHASH named ghash-neon, wrapping ghash-generic (not for production)");
MODULE_LICENSE("GPL");
MODULE_SOFTDEP("pre: ghash-generic");
