# SPDX-License-Identifier: GPL-2.0
#
# irq-poll: build, boot and measure the irq_poll series against Debian's
# linux-source-6.1.  'make help' lists the targets.

BUILD_DIR ?= $(HOME)/.cache/irq-poll
JOBS ?= $(shell nproc)
QEMU_TIMEOUT ?=
BENCH_SECONDS ?= 2
V ?= 0
export BUILD_DIR JOBS V BENCH_SECONDS
ifneq ($(QEMU_TIMEOUT),)
export QEMU_TIMEOUT
endif
# Author and Signed-off-by of the generated patches, "Name <email>"; default: this
# checkout's git config user.name/user.email.
ifneq ($(IRQP_IDENTITY),)
export IRQP_IDENTITY
endif

Q = $(if $(filter 1,$(V)),,@)
T = tests

.DEFAULT_GOAL := help
.PHONY: help run check deps tree patches check-patches apply kernel-perf kernel-debug \
	initramfs-perf initramfs-debug boot shell unit-test cocci-test cross-check results clean distclean

help:
	@echo 'irq-poll: completion polling library for linux-source-6.1'
	@echo ''
	@echo 'Main:'
	@echo '  run             - build the perf kernel, boot it, benchmark polling off/on'
	@echo '  check           - every test; ends with "N passed, N failed"'
	@echo '  results         - copy the last make run to results/ (quoted figures come from there)'
	@echo '                    (RESULTS_SUB=NAME [RUN=dir]: a study of its own, to results/NAME/)'
	@echo ''
	@echo 'Steps:'
	@echo '  deps            - install missing Debian packages (apt-get, as root)'
	@echo '  tree            - unpack linux-source-6.1 into $$(BUILD_DIR)/src (once)'
	@echo '  patches         - regenerate patches/ from the sources'
	@echo '  check-patches   - fail if patches/ is stale'
	@echo '  apply           - git am patches/ onto the pristine tree'
	@echo '  kernel-perf     - build the benchmark kernel'
	@echo '  kernel-debug    - build the lockdep/debug kernel'
	@echo '  boot            - boot the debug kernel and run the guest tests only'
	@echo '  shell           - boot the debug kernel to an interactive guest shell'
	@echo '  unit-test       - host unit tests of the harness'
	@echo '  cocci-test      - semantic patch tests'
	@echo '  cross-check     - W=1 builds of the series objects for i386, arm64, riscv64'
	@echo '  clean           - remove run logs; distclean: the whole $$(BUILD_DIR)'
	@echo ''
	@echo 'Variables (current value):'
	@echo '  BUILD_DIR=$(BUILD_DIR)'
	@echo '  JOBS=$(JOBS)  BENCH_SECONDS=$(BENCH_SECONDS)  QEMU_TIMEOUT=$(or $(QEMU_TIMEOUT),default)'
	@echo '  V=1 shows build output'

run: deps
	$(Q)$(T)/run.sh

check: deps
	$(Q)$(T)/check.sh

deps:
	$(Q)$(T)/deps.sh

tree: deps
	$(Q)$(T)/tree.sh

patches:
	$(Q)$(T)/series.sh gen

check-patches:
	$(Q)$(T)/series.sh check

apply:
	$(Q)$(T)/series.sh apply

kernel-perf kernel-debug: kernel-%: apply
	$(Q)$(T)/build-kernel.sh $*

initramfs-perf initramfs-debug: initramfs-%: kernel-%
	$(Q)$(T)/mkinitramfs.sh $*

boot: initramfs-debug
	$(Q)$(T)/qemu-run.sh -T boot,fio-ahci,fio-mptsas,net-iperf debug

shell: initramfs-debug
	$(Q)$(T)/qemu-run.sh -s debug

unit-test:
	$(Q)$(T)/unit/run.sh

cocci-test: apply
	$(Q)semantic-patches/run-tests.sh -t $(BUILD_DIR)/src/linux

cross-check: apply
	$(Q)$(T)/cross-checks.sh

# The figures quoted in the cover letter, commit messages and README (tests/figures.py).
# RESULTS_SUB=NAME [RUN=dir]: a study of its own instead, into results/NAME/, quoted
# with the prefix "NAME." (results/sweep: make run BENCH=sweep).
results:
ifneq ($(RESULTS_SUB),)
	$(Q)case '$(RESULTS_SUB)' in *[!a-z0-9-]*|'') echo 'RESULTS_SUB: lower-case letters, digits, -' >&2; exit 1;; esac; \
	d=$$(readlink -f $(or $(RUN),$(BUILD_DIR)/results/latest)) && [ -f "$$d/figures.txt" ] || \
		{ echo 'no make run results in $(or $(RUN),$(BUILD_DIR)/results/latest)' >&2; exit 1; }; \
	rm -rf results/$(RESULTS_SUB) && mkdir -p results/$(RESULTS_SUB) && \
	cp "$$d"/results.txt "$$d"/summary.txt "$$d"/figures.txt "$$d"/results.csv \
		"$$d"/results-rounds.csv "$$d"/run-info.txt "$$d"/*.png results/$(RESULTS_SUB)/ && \
	echo "results/$(RESULTS_SUB)/: from $$d"
else
	$(Q)d=$$(readlink -f $(or $(RUN),$(BUILD_DIR)/results/latest)) && [ -f "$$d/figures.txt" ] || \
		{ echo 'no make run results in $(or $(RUN),$(BUILD_DIR)/results/latest)' >&2; exit 1; }; \
	mkdir -p results && find results -maxdepth 1 -type f ! -name noise-study.txt \
		! -name 'mmio*' -delete && \
	cp "$$d"/results.txt "$$d"/summary.txt "$$d"/figures.txt "$$d"/results.csv \
		"$$d"/results-rounds.csv "$$d"/run-info.txt "$$d"/*.png results/ && \
	echo "results/: from $$d"
	$(Q)m=$$(readlink -f $(BUILD_DIR)/results/latest-mmio) && [ -f "$$m/mmio.txt" ] || exit 0; \
	cp "$$m"/mmio.txt "$$m"/mmio-figures.txt results/ && \
	cp "$$m"/run-info.txt results/mmio-run-info.txt && \
	echo "results/mmio.txt: from $$m"
endif

clean:
	rm -rf $(BUILD_DIR)/runs

distclean:
	rm -rf $(BUILD_DIR)
