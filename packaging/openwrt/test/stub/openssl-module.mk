# SPDX-License-Identifier: Apache-2.0
# Stand-in for OpenWrt's include/openssl-module.mk (see stub/rules.mk), in
# this project's own words.  It follows the upstream file as named in
# ../check.sh (read at openwrt/openwrt ab86e8a85a0e; OWRT_REV uses it):
# Package/openssl/add-provider,NAME[,PKG]
# gives the package PKG (default libopenssl-NAME)
#   conffiles  /etc/ssl/modules.cnf.d/NAME.cnf
#   install    PKG_INSTALL_DIR/usr/lib/ossl-modules/NAME.so (program mode)
#              and ./files/NAME.cnf (data mode) into modules.cnf.d
#   postinst   on the box: nothing if `uci -q get openssl.NAME` finds the
#              section; otherwise (or into an image, IPKG_INSTROOT set) append
#              `config provider 'NAME'` / `option enabled '1'` to
#              ${IPKG_INSTROOT}/etc/config/openssl; on the box then
#              `/etc/init.d/openssl reload`
#   postrm     into an image: nothing; on the box `uci -q delete openssl.NAME
#              && uci commit openssl`, then `/etc/init.d/openssl reload`
# and Package/openssl/module/Default (libs/SSL, DEPENDS libopenssl
# +libopenssl-conf).  Engines (add-engine) are not modelled: eip93 is a
# provider.  A change upstream is a change here: compare with that file.
OSSL_STUB_MODULES_DIR:=/usr/lib/ossl-modules

define Package/openssl/module/Default
  SECTION:=libs
  CATEGORY:=Libraries
  SUBMENU:=SSL
  DEPENDS:=libopenssl +libopenssl-conf
endef

# 1: provider name, 2: package name (optional)
define Package/openssl/add-provider
  $(eval OSSL_STUB_PKG:=$(if $(2),$(2),libopenssl-$(1)))
  Package/$(OSSL_STUB_PKG)/conffiles:=/etc/ssl/modules.cnf.d/$(1).cnf

  define Package/$(OSSL_STUB_PKG)/install
	$$(INSTALL_DIR) $$(1)$(OSSL_STUB_MODULES_DIR)
	$$(INSTALL_BIN) $$(PKG_INSTALL_DIR)$(OSSL_STUB_MODULES_DIR)/$(1).so $$(1)$(OSSL_STUB_MODULES_DIR)
	$$(INSTALL_DIR) $$(1)/etc/ssl/modules.cnf.d
	$$(INSTALL_DATA) ./files/$(1).cnf $$(1)/etc/ssl/modules.cnf.d/
  endef

  define Package/$(OSSL_STUB_PKG)/postinst
#!/bin/sh
uci_file="$$$${IPKG_INSTROOT}/etc/config/openssl"
if [ -z "$$$${IPKG_INSTROOT}" ] && uci -q get openssl.$(1) >/dev/null; then
	exit 0
fi
printf "\nconfig provider '%s'\n\toption enabled '1'\n" $(1) >>"$$$$uci_file"
[ -n "$$$${IPKG_INSTROOT}" ] || /etc/init.d/openssl reload
exit 0
  endef

  define Package/$(OSSL_STUB_PKG)/postrm
#!/bin/sh
[ -n "$$$${IPKG_INSTROOT}" ] && exit 0
uci -q delete openssl.$(1) && uci commit openssl
/etc/init.d/openssl reload
exit 0
  endef
endef
