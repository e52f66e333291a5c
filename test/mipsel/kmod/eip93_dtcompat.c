// SPDX-License-Identifier: GPL-2.0
/*
 * eip93_dtcompat: TEST-ONLY.  Replaces the root node's "compatible" in the
 * live device tree, so that the mipsel guest (QEMU's malta) shows the
 * provider's gate an MT7621 through /proc/device-tree/compatible.
 *
 * Why a module: QEMU's malta machine passes the kernel no device tree (its
 * bootloader hands over YAMON-style argv/envp only) and the Malta kernel
 * unflattens its built-in tree (arch/mips/mti-malta/malta-setup.c:
 * plat_get_fdt() returns __dtb_start, malta_dt_shim() edits memory and
 * such, never the root compatible).  So the tree cannot be edited before
 * boot as the arm64 guest's is; this module edits it after boot.
 *
 * compatible=vendor,device[,vendor,device...]: the new list, its strings
 * joined by commas and rejoined in pairs (as test/rig/run.sh --compatible),
 * e.g. compatible=mediatek,mt7621-soc.  The old property is removed with
 * of_remove_property() and the new one added with of_add_property() (Debian's
 * 6.1 4kc-malta kernel exports these, not of_update_property()); sysfs, so
 * /proc/device-tree, follows.  rmmod puts a copy of the original back.
 * Removed properties stay on the node's dead list, as the OF core requires:
 * they are never freed.
 */
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *compatible;
module_param(compatible, charp, 0444);
MODULE_PARM_DESC(compatible, "the root compatible list: vendor,device[,vendor,device...]");

static struct property *ours;	  /* the property this module added */
static struct property *original; /* a copy of the tree's own, for rmmod */

static struct property *dtcompat_prop(const void *value, int length)
{
	struct property *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->name = kstrdup("compatible", GFP_KERNEL);
	p->value = kmemdup(value, length, GFP_KERNEL);
	p->length = length;
	if (!p->name || !p->value) {
		kfree(p->name);
		kfree(p->value);
		kfree(p);
		return NULL;
	}
	return p;
}

/* "a,b,c,d" -> "a,b\0c,d\0": every second comma ends a string. */
static char *dtcompat_list(const char *arg, int *length)
{
	size_t n = strlen(arg), i;
	unsigned int commas = 0;
	char *buf;

	if (n == 0 || arg[0] == ',' || arg[n - 1] == ',')
		return NULL;
	buf = kmalloc(n + 1, GFP_KERNEL);
	if (!buf)
		return NULL;
	memcpy(buf, arg, n + 1);
	for (i = 0; i < n; i++) {
		if (buf[i] != ',')
			continue;
		if (buf[i + 1] == ',') {
			kfree(buf);
			return NULL;
		}
		if (++commas % 2 == 0)
			buf[i] = '\0';
	}
	if (commas % 2 == 0) { /* not vendor,device pairs */
		kfree(buf);
		return NULL;
	}
	*length = (int)n + 1;
	return buf;
}

static void dtcompat_free(struct property *p)
{
	if (!p)
		return;
	kfree(p->name);
	kfree(p->value);
	kfree(p);
}

static int __init eip93_dtcompat_init(void)
{
	struct device_node *root;
	struct property *old;
	char *list;
	int length = 0, ret;

	if (!compatible)
		return -EINVAL;
	list = dtcompat_list(compatible, &length);
	if (!list) {
		pr_err("eip93_dtcompat: compatible=%s: expected vendor,device[,vendor,device...]\n",
		       compatible);
		return -EINVAL;
	}
	root = of_find_node_by_path("/");
	if (!root) {
		kfree(list);
		return -ENODEV;
	}
	old = of_find_property(root, "compatible", NULL);
	ours = dtcompat_prop(list, length);
	original = old ? dtcompat_prop(old->value, old->length) : NULL;
	kfree(list);
	ret = -ENOMEM;
	if (!ours || (old && !original))
		goto fail;
	if (old) {
		ret = of_remove_property(root, old);
		if (ret)
			goto fail;
	}
	ret = of_add_property(root, ours);
	if (ret) {
		/* The tree as it was: the copy of the original goes in. */
		if (original && of_add_property(root, original) == 0)
			original = NULL;
		goto fail;
	}
	pr_info("eip93_dtcompat: root compatible is now %s (test-only)\n", compatible);
	of_node_put(root);
	return 0;
fail:
	/* Nothing allocated here is in the tree. */
	dtcompat_free(ours);
	dtcompat_free(original);
	ours = original = NULL;
	of_node_put(root);
	return ret;
}

static void __exit eip93_dtcompat_exit(void)
{
	struct device_node *root = of_find_node_by_path("/");

	if (!root)
		return;
	of_remove_property(root, ours);
	if (original)
		of_add_property(root, original);
	of_node_put(root);
	pr_info("eip93_dtcompat: root compatible restored\n");
}

module_init(eip93_dtcompat_init);
module_exit(eip93_dtcompat_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("TEST-ONLY: replaces the device tree's root compatible (mipsel guest, MT7621)");
