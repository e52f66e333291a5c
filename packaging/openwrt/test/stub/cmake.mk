# SPDX-License-Identifier: Apache-2.0
# Stand-in for OpenWrt's cmake.mk (see stub/rules.mk): only records the options.
CMAKE_OPTIONS?=
