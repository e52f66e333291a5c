# SPDX-License-Identifier: Apache-2.0
# A stand-in for OpenWrt's rules.mk, just enough for packaging/openwrt/test/check.sh
# to evaluate a package Makefile without an OpenWrt tree: the install
# macros, as OpenWrt defines their meaning (directories 0755, programs 0755,
# data 0644, configuration 0600).
INSTALL_DIR:=install -d -m0755
INSTALL_BIN:=install -m0755
INSTALL_DATA:=install -m0644
INSTALL_CONF:=install -m0600
CP:=cp -fpR
