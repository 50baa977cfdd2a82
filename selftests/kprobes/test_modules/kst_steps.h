/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steps of kprobes_selftest.ko: what the drivers ask of the module
 * while they watch from user space, not cases of their own. A step is an
 * int step_<name>(const char *arg); KST_STEP_ARG() steps take an argument,
 * the others none. A part, KST_PART(part), is an object with state of its
 * own: kst_<part>_init(dir) adds its debugfs files at load, and
 * kst_<part>_release() unregisters its probes, on the "release" step and
 * at unload. Whoever includes this file defines KST_STEP(), KST_STEP_ARG()
 * and KST_PART() first, as declarations or statements.
 */

/* Unregisters every probe a step left registered. */
KST_STEP(release);

/* kst_hold.c: probes held for kprobes/list and kprobes/enabled. */
KST_PART(hold);
KST_STEP(hold_kprobe);
KST_STEP(hold_kprobe_disabled);
KST_STEP(hold_kprobe_disabled_inner);
KST_STEP(held_disabled_unarmed);
KST_STEP(enable_held_disabled);
KST_STEP(disable_held);
KST_STEP(kprobes_on_ftrace);
KST_STEP(call_target);

/* kst_blacklist.c */
KST_STEP(blacklisted_module_function);
KST_STEP(blacklisted_suffixed_part);
KST_STEP_ARG(blacklisted_symbol);

/* kst_slots.c: more probes than the pages of slots in use hold. */
KST_PART(slots);
KST_STEP_ARG(hold_slot_probes);

/* kst_nomem.c: registering while allocations fail. */
KST_STEP(register_without_memory);

/* kst_gone.c: a probe on kprobes_selftest_target.ko, which goes away. */
KST_PART(gone);
KST_STEP(hold_kprobe_gone);
KST_STEP(hold_second_kprobe_gone);
KST_STEP(hold_kprobe_gone_off_entry);
KST_STEP(enable_gone);
KST_STEP(hold_kprobe_init);
KST_STEP(check_kprobe_init);
KST_STEP(watch_module_going);
KST_STEP(check_module_going);

/* kst_optprobe.c: optimized probes on a module that comes and goes. */
KST_PART(optprobe);
KST_STEP(hold_optprobe);
KST_STEP(optprobe_reuse_disabled);
KST_STEP(optprobe_add_post_handler);
KST_STEP(optprobe_force_release);
KST_STEP(optprobe_reregister);

/* kst_optprobe_core.c: an optimized probe in kernel text. */
KST_PART(optprobe_core);
KST_STEP(hold_core_optprobe);
KST_STEP(core_optprobe_add_post_handler);
KST_STEP(core_optprobe_remove_post_handler);
KST_STEP(core_optprobe_cover_next);
KST_STEP(core_optprobe_uncover);
KST_STEP(unregister_core_optprobe);

#undef KST_STEP
#undef KST_STEP_ARG
#undef KST_PART
