/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kst_insns_x86.S - the instructions x86 kprobes emulate rather than
 * single-step out of line (prepare_emulation(), kprobes/core.c): calls,
 * jumps, conditional jumps, loop, ret, and those that read or change the
 * interrupt flag; and some they refuse. Each is in a function of its own:
 * long f(long value), for x86_64 and i386 alike. An emulation that goes
 * wrong returns another value, without crashing where it can.
 */
#include <linux/cfi_types.h>
#include <linux/errno.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>
#include <asm/processor-flags.h>

#include "kst_insns_table.S"

/*
 * kst_insns.c calls these functions through a pointer, and they call each
 * other through a register: with IBT each must begin with an ENDBR, which
 * SYM_TYPED_FUNC_START() gives on every kernel. Under kCFI it also wants
 * a type that only C can give them (__kcfi_typeid_<name>): there they are
 * plain functions with an ENDBR, and kst_insns.c calls them unchecked.
 *
 * The table also holds the address of each probed instruction, which
 * objtool takes for an indirect branch target without an ENDBR ("data
 * relocation to !ENDBR"): nothing branches there, as ANNOTATE_NOENDBR
 * before each such label says.
 */
#if defined(CONFIG_CFI) || defined(CONFIG_CFI_CLANG)
#define KST_FUNC_START(name)	SYM_FUNC_START(name) ENDBR
#else
#define KST_FUNC_START(name)	SYM_TYPED_FUNC_START(name)
#endif

/*
 * The register an indirect call or jump goes through. On x86_64 it is
 * r11, which needs REX.B: without it, the same ModRM byte names rbx,
 * which kst_insn_call_indirect() points at kst_add1000, so that a wrong
 * decode returns a wrong value there.
 */
#ifdef CONFIG_X86_64
#define KST_INDIRECT	%r11
#else
#define KST_INDIRECT	%_ASM_DX
#endif

/* value is in %_ASM_AX, where it is returned: i386 passes it there. */
	.macro	kst_value
#ifdef CONFIG_X86_64
	mov	%rdi, %rax
#endif
	.endm

	.macro	kst_load reg, func
#ifdef CONFIG_X86_64
	lea	\func(%rip), \reg
#else
	mov	$\func, \reg
#endif
	.endm

	.text

KST_FUNC_START(kst_add1)
	add	$1, %_ASM_AX
	RET
SYM_FUNC_END(kst_add1)

KST_FUNC_START(kst_add1000)
	add	$1000, %_ASM_AX
	RET
SYM_FUNC_END(kst_add1000)

/* call pushes the address after it: kst_add1() returns there (+ 101). */
KST_FUNC_START(kst_insn_call)
	kst_value
	ANNOTATE_NOENDBR
.Lcall:	call	kst_add1
	add	$100, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_call)

KST_FUNC_START(kst_insn_call_indirect)
	kst_value
	push	%_ASM_BX
	kst_load KST_INDIRECT, kst_add1
	kst_load %_ASM_BX, kst_add1000
	ANNOTATE_RETPOLINE_SAFE
	ANNOTATE_NOENDBR
.Lcall_indirect:
	call	*KST_INDIRECT
	add	$100, %_ASM_AX
	pop	%_ASM_BX
	RET
SYM_FUNC_END(kst_insn_call_indirect)

/*
 * A tail call: kst_add1() returns to this function's caller. A jmp that
 * falls through, or pushes a return address as a call does, gets to the
 * add of 1000, which the jz (never taken) makes reachable for objtool.
 */
KST_FUNC_START(kst_insn_jmp_indirect)
	kst_value
	add	$100, %_ASM_AX
	jz	1f
	kst_load KST_INDIRECT, kst_add1
	ANNOTATE_RETPOLINE_SAFE
	ANNOTATE_NOENDBR
.Ljmp_indirect:
	jmp	*KST_INDIRECT
1:	add	$1000, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_jmp_indirect)

/*
 * jmp rel8 (EB) and jmp rel32 (E9) skip an add of 1000, which a value of
 * 0 goes to, and a jmp that does not jump falls into.
 */
KST_FUNC_START(kst_insn_jmp8)
	kst_value
	test	%_ASM_AX, %_ASM_AX
	jz	1f
	ANNOTATE_NOENDBR
.Ljmp8:	jmp	2f
1:	add	$1000, %_ASM_AX
2:	add	$1, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_jmp8)

KST_FUNC_START(kst_insn_jmp32)
	kst_value
	test	%_ASM_AX, %_ASM_AX
	jz	1f
	ANNOTATE_NOENDBR
.Ljmp32:
	.byte	0xe9
	.long	2f - (. + 4)
1:	add	$1000, %_ASM_AX
2:	add	$1, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_jmp32)

/* je rel8 (74): taken for 0. */
KST_FUNC_START(kst_insn_je)
	kst_value
	test	%_ASM_AX, %_ASM_AX
	ANNOTATE_NOENDBR
.Lje:	je	1f
	add	$100, %_ASM_AX
	RET
1:	add	$1, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_je)

/* jl rel32 (0F 8C), a signed condition: taken for a negative value. */
KST_FUNC_START(kst_insn_jl)
	kst_value
	cmp	$0, %_ASM_AX
	ANNOTATE_NOENDBR
.Ljl:	.byte	0x0f, 0x8c
	.long	1f - (. + 4)
	add	$100, %_ASM_AX
	RET
1:	add	$1, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_jl)

/*
 * The other flags a short jcc (7x) tests, each in its own entry of
 * __emulate_cc(): OF, CF, CF or ZF, SF, PF, and SF != OF or ZF (jle, cc
 * e); jne is the inverted form (an odd cc) of je. "cmp $\cmp, value"
 * sets the flags; taken adds 1, not taken 100.
 */
	.macro	kst_jcc cond, cmp
KST_FUNC_START(kst_insn_j\cond)
	kst_value
	cmp	$\cmp, %_ASM_AX
	ANNOTATE_NOENDBR
.Lj\cond:
	j\cond	1f
	add	$100, %_ASM_AX
	RET
1:	add	$1, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_j\cond)
	.endm

	kst_jcc	o, 1
	kst_jcc	b, 10
	kst_jcc	be, 10
	kst_jcc	s, 0
	kst_jcc	p, 0
	kst_jcc	ne, 0
	kst_jcc	le, 0

/* Two rounds: the probed loop runs twice, and counts the counter down to 0. */
KST_FUNC_START(kst_insn_loop)
	kst_value
	mov	$2, %_ASM_CX
1:	add	$10, %_ASM_AX
	ANNOTATE_NOENDBR
.Lloop:	loop	1b
	RET
SYM_FUNC_END(kst_insn_loop)

/* jrcxz (jecxz on i386): taken for 0. */
KST_FUNC_START(kst_insn_jcxz)
	kst_value
	mov	%_ASM_AX, %_ASM_CX
#ifdef CONFIG_X86_64
	ANNOTATE_NOENDBR
.Ljcxz:	jrcxz	1f
#else
	ANNOTATE_NOENDBR
.Ljcxz:	jecxz	1f
#endif
	add	$100, %_ASM_AX
	RET
1:	add	$1, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_jcxz)

/* As for jmp *reg: a ret that falls through adds 1000. */
KST_FUNC_START(kst_insn_ret)
	kst_value
	add	$1, %_ASM_AX
	jz	1f
	ANNOTATE_UNRET_SAFE
	ANNOTATE_NOENDBR
.Lret:	ret
1:	add	$1000, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_ret)

/*
 * The interrupt flag as pushf gives it: interrupts are enabled where the
 * function is called, and a kprobe single-steps with them disabled, so
 * pushf, popf, cli and sti are emulated on the state the probe saw.
 */
KST_FUNC_START(kst_insn_pushf)
	kst_value
	ANNOTATE_NOENDBR
.Lpushf:
	pushf
	pop	%_ASM_DX
	and	$X86_EFLAGS_IF, %_ASM_DX
	add	%_ASM_DX, %_ASM_AX
	RET
SYM_FUNC_END(kst_insn_pushf)

/*
 * popf loads the flags from the stack, the interrupt flag included: here
 * a copy of them with it clear, so that a popf that changes nothing
 * shows.
 */
KST_FUNC_START(kst_insn_popf)
	kst_value
	pushf
	andl	$~X86_EFLAGS_IF, (%_ASM_SP)
	ANNOTATE_NOENDBR
.Lpopf:	popf
	pushf
	pop	%_ASM_DX
	and	$X86_EFLAGS_IF, %_ASM_DX
	add	%_ASM_DX, %_ASM_AX
	sti
	RET
SYM_FUNC_END(kst_insn_popf)

/* Interrupts off between cli and sti: the flag read there is 0. */
KST_FUNC_START(kst_insn_cli_sti)
	kst_value
	ANNOTATE_NOENDBR
.Lcli:	cli
	pushf
	pop	%_ASM_DX
	and	$X86_EFLAGS_IF, %_ASM_DX
	add	%_ASM_DX, %_ASM_AX
	ANNOTATE_NOENDBR
.Lsti:	sti
	RET
SYM_FUNC_END(kst_insn_cli_sti)

/*
 * Never called: its refused instructions are only probed. The branch
 * makes them reachable, as objtool wants every instruction to be.
 */
KST_FUNC_START(kst_insn_refused)
	test	%_ASM_AX, %_ASM_AX
	jnz	1f
	RET
1:	ANNOTATE_RETPOLINE_SAFE
	ANNOTATE_NOENDBR
.Lcall_mem:
	call	*(%_ASM_AX)
	ANNOTATE_NOENDBR
.Lvmcall:
	vmcall
	ANNOTATE_RETPOLINE_SAFE
	ANNOTATE_NOENDBR
.Ljmp_mem:
	jmp	*(%_ASM_AX)
	int3
SYM_FUNC_END(kst_insn_refused)

/*
 * For api.kprobe_after_probe (kst_offset.c): a kprobe at .Lafter_next,
 * registered while one at .Lafter_first is armed. x86 finds instruction
 * boundaries by decoding the function from its start, and must read
 * the first probe's opcode where its int3 is: read as int3, then from
 * its second byte, the mov below runs one byte past .Lafter_next (its
 * immediate's first byte, 0xb8, is another 5-byte mov), which is then
 * refused as inside an instruction. A REX prefix, as the compiler's
 * code mostly has first, gives no such test: without it, the rest of
 * the instruction decodes to the same end.
 */
KST_FUNC_START(kst_after_probe_target)
	kst_value
.Lafter_first:
	mov	$0xb8, %ecx
.Lafter_next:
	add	%_ASM_CX, %_ASM_AX
	RET
SYM_FUNC_END(kst_after_probe_target)

	.section .rodata, "a"
	.balign	4
SYM_DATA(kst_after_probe_offsets,
	 .long .Lafter_first - kst_after_probe_target, .Lafter_next - kst_after_probe_target)
	.text

	kst_insns_start
	kst_insn "call", kst_insn_call, .Lcall, 1, 102
	kst_insn "call *reg", kst_insn_call_indirect, .Lcall_indirect, 1, 102
	kst_insn "jmp *reg", kst_insn_jmp_indirect, .Ljmp_indirect, 1, 102
	kst_insn "jmp rel32", kst_insn_jmp32, .Ljmp32, 1, 2
	kst_insn "jmp rel8", kst_insn_jmp8, .Ljmp8, 1, 2
	kst_insn "je taken", kst_insn_je, .Lje, 0, 1
	kst_insn "je not taken", kst_insn_je, .Lje, 5, 105
	kst_insn "jl rel32 taken", kst_insn_jl, .Ljl, -5, -4
	kst_insn "jl rel32 not taken", kst_insn_jl, .Ljl, 5, 105
	kst_insn "jo taken", kst_insn_jo, .Ljo, KST_LONG_MIN, KST_LONG_MIN+1
	kst_insn "jo not taken", kst_insn_jo, .Ljo, 5, 105
	kst_insn "jb taken", kst_insn_jb, .Ljb, 5, 6
	kst_insn "jb not taken", kst_insn_jb, .Ljb, 20, 120
	kst_insn "jbe taken, ZF", kst_insn_jbe, .Ljbe, 10, 11
	kst_insn "jbe not taken", kst_insn_jbe, .Ljbe, 20, 120
	kst_insn "js taken", kst_insn_js, .Ljs, -5, -4
	kst_insn "js not taken", kst_insn_js, .Ljs, 5, 105
	kst_insn "jp taken", kst_insn_jp, .Ljp, 3, 4
	kst_insn "jp not taken", kst_insn_jp, .Ljp, 1, 101
	kst_insn "jne taken", kst_insn_jne, .Ljne, 5, 6
	kst_insn "jne not taken", kst_insn_jne, .Ljne, 0, 100
	kst_insn "jle taken, ZF", kst_insn_jle, .Ljle, 0, 1
	kst_insn "jle taken, SF != OF", kst_insn_jle, .Ljle, -5, -4
	kst_insn "jle not taken", kst_insn_jle, .Ljle, 5, 105
	kst_insn "loop", kst_insn_loop, .Lloop, 1, 21, 2
	kst_insn "jcxz taken", kst_insn_jcxz, .Ljcxz, 0, 1
	kst_insn "jcxz not taken", kst_insn_jcxz, .Ljcxz, 5, 105
	kst_insn "ret", kst_insn_ret, .Lret, 1, 2
	kst_insn "pushf", kst_insn_pushf, .Lpushf, 1, 1 + X86_EFLAGS_IF
	kst_insn "popf", kst_insn_popf, .Lpopf, 1, 1
	kst_insn "cli", kst_insn_cli_sti, .Lcli, 1, 1
	kst_insn "sti", kst_insn_cli_sti, .Lsti, 1, 1
	kst_insn "call *mem", kst_insn_refused, .Lcall_mem, 0, 0, 0, -EOPNOTSUPP
	kst_insn "jmp *mem", kst_insn_refused, .Ljmp_mem, 0, 0, 0, -EOPNOTSUPP
	kst_insn "vmcall", kst_insn_refused, .Lvmcall, 0, 0, 0, -EOPNOTSUPP
	kst_insns_end
