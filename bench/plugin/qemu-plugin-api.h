/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin API that qc-cost uses, declared here because
 * Debian packages no qemu-plugin.h. Written from QEMU's documented interface
 * (include/qemu/qemu-plugin.h): the names, argument types and enum values
 * must match it exactly, since QEMU resolves these symbols in its own binary
 * when it loads the plugin.
 *
 * Two versions, chosen at build time by QC_PLUGIN_API_VERSION:
 *   4  QEMU 10.0's (QEMU_PLUGIN_VERSION 4; QEMU_PLUGIN_MIN_VERSION 2 in its
 *      plugins/plugin.h): what the rig runs on (scripts/lib/qemu.sh).
 *      Version 3 made qemu_plugin_insn_data copy into a caller's buffer;
 *      nothing else qc-cost uses changed from version 1.
 *   1  QEMU 7.2's, which refuses any other: kept only to measure 7.2 beside
 *      10 on one machine (QC_QEMU_UNPROVEN=1).
 */
#ifndef QC_QEMU_PLUGIN_API_H
#define QC_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QC_PLUGIN_EXPORT __attribute__((visibility("default")))
#ifndef QC_PLUGIN_API_VERSION
#define QC_PLUGIN_API_VERSION 4
#endif
#if QC_PLUGIN_API_VERSION != 1 && QC_PLUGIN_API_VERSION != 4
#error "qemu-plugin-api.h declares API versions 1 (QEMU 7.2) and 4 (QEMU 10.0)"
#endif

typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;

typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_mem_rw {
	QEMU_PLUGIN_MEM_R = 1,
	QEMU_PLUGIN_MEM_W,
	QEMU_PLUGIN_MEM_RW,
};

typedef void (*qemu_plugin_simple_cb_t)(qemu_plugin_id_t id);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index,
					  qemu_plugin_meminfo_t info,
					  uint64_t vaddr, void *userdata);

/* What the plugin exports; QEMU checks the version before install. */
extern QC_PLUGIN_EXPORT int qemu_plugin_version;
QC_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					 const qemu_info_t *info,
					 int argc, char **argv);

/* What QEMU provides. */
void qemu_plugin_reset(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw,
				      void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
#if QC_PLUGIN_API_VERSION >= 3
size_t qemu_plugin_insn_data(const struct qemu_plugin_insn *insn,
			     void *dest, size_t len);
#else
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
#endif
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);

#endif
