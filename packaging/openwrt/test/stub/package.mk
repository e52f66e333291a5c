# SPDX-License-Identifier: Apache-2.0
# Stand-in for OpenWrt's package.mk (see stub/rules.mk).  BuildPackage,NAME
# defines, per binary package:
#   stub-info-NAME      prints the package's metadata (Package/NAME variables,
#                       conffiles) as "Field: value" lines
#   stub-install-NAME   runs Package/NAME/install into $(STUB_ROOT)/NAME and
#                       writes Package/NAME/postinst and postrm there as files
# PKG_INSTALL_DIR comes from the command line (a staged `cmake --install`).
PKG_BUILD_DIR?=$(CURDIR)/.stub-build
STUB_ROOT?=$(CURDIR)/.stub-root

define stub_pkg
$(eval SECTION:=)$(eval CATEGORY:=)$(eval SUBMENU:=)$(eval TITLE:=)$(eval DEPENDS:=)$(eval URL:=)
$(eval $(Package/$(1)))
$(eval STUB_SECTION_$(1):=$(SECTION))
$(eval STUB_CATEGORY_$(1):=$(CATEGORY))
$(eval STUB_TITLE_$(1):=$(TITLE))
$(eval STUB_DEPENDS_$(1):=$(DEPENDS))
endef

define BuildPackage
$(call stub_pkg,$(1))
.PHONY: stub-info-$(1) stub-install-$(1) stub-prep-$(1)
stub-info-$(1):
	@echo 'Package: $(1)'
	@echo 'Version: $(PKG_VERSION)-$(PKG_RELEASE)'
	@echo 'License: $(PKG_LICENSE)'
	@echo 'Section: $(STUB_SECTION_$(1))'
	@echo 'Category: $(STUB_CATEGORY_$(1))'
	@echo 'Title: $(STUB_TITLE_$(1))'
	@echo 'Depends: $(strip $(STUB_DEPENDS_$(1)))'
	@echo 'Conffiles: $(strip $(Package/$(1)/conffiles))'
	@echo 'CMake: $(strip $(CMAKE_OPTIONS))'
stub-prep-$(1):
	rm -rf $(STUB_ROOT)/$(1)
	mkdir -p $(STUB_ROOT)/$(1)
# make expands a whole recipe before running it: $$(file) needs the directory first.
stub-install-$(1): stub-prep-$(1)
	$(call Package/$(1)/install,$(STUB_ROOT)/$(1))
	$$(file >$(STUB_ROOT)/$(1).postinst,$$(Package/$(1)/postinst))
	$$(file >$(STUB_ROOT)/$(1).postrm,$$(Package/$(1)/postrm))
endef
