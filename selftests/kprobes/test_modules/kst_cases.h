/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases of kprobes_selftest.ko, one line each: the only list of them.
 * A case runs whole in the kernel and is an int case_<name>(void) that
 * returns 0, kst_fail() or kst_skip(). The module builds its table of
 * cases from this list, and its driver one api.<name>.run test per case.
 * Whoever includes this file defines KST_CASE(name) first.
 *
 * KST_CASE_FATAL(name): a case that kills a kernel without its fix
 * (../kst_fixes.h names it). CI farms run these selftests on stable
 * kernels that may lack it: test_kprobes_fatal, the last program, runs
 * these cases, so that every other test has reported by then.
 */
#ifndef KST_CASE_FATAL
#define KST_CASE_FATAL(name) KST_CASE(name)
#endif
KST_CASE(kprobe_by_symbol);
KST_CASE(kprobe_by_addr);
/*
 * The refusals of addresses inside an instruction, first of the fatal
 * cases: where such a probe is accepted (MIPS without its fix), the
 * cases after it crash.
 */
KST_CASE_FATAL(err_bad_offset);
KST_CASE(err_kretprobe_offset);
KST_CASE(kprobe_symbol_offset);
KST_CASE(kprobe_core_kernel);
KST_CASE(kprobe_core_kernel_addr);
KST_CASE(probes_same_addr_handlers);
KST_CASE(kprobe_core_kernel_offset);
KST_CASE(kprobe_after_probe);
KST_CASE(handler_fault_fixed_up);
/* Two probes at one ftrace entry: without its fix, a kernel dies. */
KST_CASE_FATAL(kprobe_changes_execution_path);
KST_CASE_FATAL(kprobe_insns);
KST_CASE(kretprobe_by_symbol);
KST_CASE(kretprobe_by_addr);
KST_CASE(kretprobe_entry_data);
KST_CASE(kretprobe_entry_only);
KST_CASE(kretprobe_maxactive_default);
/* Two probes at one ftrace entry: without its fix, a kernel dies. */
KST_CASE_FATAL(probes_same_addr);
KST_CASE(kretprobe_ignores_post_handler);
KST_CASE(err_symbol_and_addr);
KST_CASE(err_unknown_symbol);
KST_CASE(err_unknown_addr);
KST_CASE(err_kretprobe_data_size);
KST_CASE(err_kretprobe_blacklist);
KST_CASE(err_ipmodify_busy);
KST_CASE(err_not_text);
KST_CASE(err_bug_site);
KST_CASE(err_jump_label_site);
KST_CASE_FATAL(extable_site);
KST_CASE_FATAL(extable_delay_slot);
KST_CASE(register_clears_stale_flags);
KST_CASE(err_register_twice);
KST_CASE_FATAL(unregister_unregistered);
KST_CASE(recursion_nmissed);
/* Two probes at one ftrace entry: without its fix, a kernel dies. */
KST_CASE_FATAL(recursion_nmissed_aggregate);
KST_CASE(recursion_nmissed_breakpoint);
KST_CASE(recursion_nmissed_optimized);
KST_CASE(batch);
KST_CASE(batch_rollback);
KST_CASE(batch_first_invalid);
KST_CASE(batch_num_invalid);
KST_CASE(batch_unregister_stale);
KST_CASE(disable_enable);
KST_CASE(register_disabled);
KST_CASE(disable_one_of_two);
KST_CASE(enable_unregistered);
KST_CASE(maxactive_exhausted);
KST_CASE(maxactive_enough);
KST_CASE(maxactive_recursive);
KST_CASE(kretprobe_unregistered_in_flight);
KST_CASE(kretprobe_return_address);
KST_CASE(kretprobe_return_address_nested);
KST_CASE(kretprobe_noreturn_recycled);

#undef KST_CASE
#undef KST_CASE_FATAL
