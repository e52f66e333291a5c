# SPDX-License-Identifier: Apache-2.0
# Stand-in for OpenWrt's package.mk (see stub/rules.mk).  BuildPackage,NAME
# defines, per binary package:
#   stub-info-NAME      prints the package's metadata (Package/NAME variables,
#                       conffiles) as "Field: value" lines, and "Control-Depends:",
#                       the Depends field of the package's control file for the
#                       target whose CONFIG_TARGET_* variables are set on the
#                       command line
#   stub-install-NAME   runs Package/NAME/install into $(STUB_ROOT)/NAME and
#                       writes Package/NAME/postinst and postrm there as files
# PKG_INSTALL_DIR comes from the command line (a staged `cmake --install`).
#
# Control-Depends: OpenWrt's include/package-pack.mk computes the field as
# mergelist(filter_deps(DEPENDS)).  STUB_PACK_DEPS may name a file holding
# those definitions taken from OpenWrt's own package-pack.mk (check.sh
# extracts them when the pinned tree has it); without it, the same rules for
# the forms this Makefile uses, in this project's words: "@SYM" dropped,
# "+pkg" kept, "+SYM:pkg" kept when CONFIG_SYM is set, "+!SYM:pkg" when it is
# not, joined with ", ".
PKG_BUILD_DIR?=$(CURDIR)/.stub-build
STUB_ROOT?=$(CURDIR)/.stub-root
ifneq ($(STUB_PACK_DEPS),)
include $(STUB_PACK_DEPS)
endif
stub_comma:=,
stub_empty:=
stub_space:=$(stub_empty) $(stub_empty)
stub_cond=$(if $(findstring !,$(word 1,$(1))),$(if $(CONFIG_$(subst !,,$(word 1,$(1)))),,$(word 2,$(1))),$(if $(CONFIG_$(word 1,$(1))),$(word 2,$(1))))
stub_dep=$(if $(findstring :,$(1)),$(call stub_cond,$(subst :, ,$(1))),$(1))
stub_filter_deps=$(strip $(foreach d,$(subst +,,$(filter-out @%,$(1))),$(call stub_dep,$(d))))
stub_control_depends=$(if $(value filter_deps),$(call mergelist,$(call filter_deps,$(1))),$(subst $(stub_space),$(stub_comma)$(stub_space),$(call stub_filter_deps,$(1))))

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
	@echo 'Control-Depends: $(call stub_control_depends,$(STUB_DEPENDS_$(1)))'
	@echo 'Control-Depends-From: $(if $(value filter_deps),OpenWrt package-pack.mk,stub)'
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
