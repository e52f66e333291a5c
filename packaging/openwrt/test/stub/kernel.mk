# SPDX-License-Identifier: Apache-2.0
# Stand-in for OpenWrt's kernel.mk (see stub/rules.mk).  KernelPackage,NAME
# defines stub-info-kmod-NAME, printing the kernel package's metadata
# (title, dependencies, KCONFIG, FILES, AUTOLOAD) as "Field: value" lines.
LINUX_DIR?=$$(LINUX_DIR)
AutoLoad=$(1):$(2)

define KernelPackage
$(eval SUBMENU:=)$(eval TITLE:=)$(eval DEPENDS:=)$(eval KCONFIG:=)$(eval FILES:=)$(eval AUTOLOAD:=)
$(eval $(KernelPackage/$(1)))
$(eval STUB_KTITLE_$(1):=$(TITLE))
$(eval STUB_KDEPENDS_$(1):=$(DEPENDS))
$(eval STUB_KCONFIG_$(1):=$(KCONFIG))
$(eval STUB_KFILES_$(1):=$(FILES))
$(eval STUB_KAUTOLOAD_$(1):=$(AUTOLOAD))
.PHONY: stub-info-kmod-$(1)
stub-info-kmod-$(1):
	@echo 'Package: kmod-$(1)'
	@echo 'Title: $(STUB_KTITLE_$(1))'
	@echo 'Depends: $(strip $(STUB_KDEPENDS_$(1)))'
	@echo 'KConfig: $(strip $(STUB_KCONFIG_$(1)))'
	@echo 'Files: $(strip $(STUB_KFILES_$(1)))'
	@echo 'AutoLoad: $(strip $(STUB_KAUTOLOAD_$(1)))'
	@echo 'Description: $(strip $(subst $(newline), ,$(KernelPackage/$(1)/description)))'
endef
define newline


endef
