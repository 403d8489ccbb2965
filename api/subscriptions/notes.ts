/**
 * Staff's internal notes on a membership (the member page, docs/admin.md): every staff role of its business reads
 * them (readMemberNotes: viewers, editors, owners, administrators), owners, editors and administrators write them
 * (writeMemberNotes); never the member, never a partner token. A note is written with its event
 * (membership.note_added.v1, without the text) in one transaction; notes are not edited or deleted.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { MembershipNote, Prisma } from "../generated/prisma/client.ts";
import { assertCan, requireUser } from "../auth/policy.ts";
import { MEMBER_NOTE_MAX_CHARS } from "../shared/member-notes.ts";
import { NotFoundError } from "../shared/errors.ts";
import { parseInput } from "../shared/validation.ts";
import { membershipEvent } from "./service.ts";

const MembershipIdInput = z.object({ membershipId: z.number().int().positive("Missing membership id") });

const NoteBody = z.object({
  body: z
    .string()
    .trim()
    .min(1, "Please write a note: it cannot be empty.")
    .max(MEMBER_NOTE_MAX_CHARS, `A note can be at most ${MEMBER_NOTE_MAX_CHARS.toLocaleString("en-US")} characters long.`),
});

/** Newest first; notes written in the same instant in the order written, the last first. */
const noteOrder = [{ createdAt: "desc" }, { id: "desc" }] as const satisfies Prisma.MembershipNoteOrderByWithRelationInput[];

type NotePage = Pick<Prisma.MembershipNoteFindManyArgs, "select" | "include" | "take" | "skip" | "cursor">;

/** A membership's notes, newest first: staff of its business only (readMemberNotes). */
export async function listNotes(ctx: ServiceContext, membership: { id: number; businessId: number }, page: NotePage = {}): Promise<MembershipNote[]> {
  await assertCan(ctx, membership.businessId, "readMemberNotes");
  return ctx.db.membershipNote.findMany({ take: 50, ...page, where: { subscriptionId: membership.id }, orderBy: noteOrder });
}

/**
 * Adds a note to a membership, as the signed-in staff member at the clock's now: its owners, editors and administrators
 * (writeMemberNotes). The body is trimmed and must hold 1 to MEMBER_NOTE_MAX_CHARS characters; it is checked after
 * the writer, so anyone else is refused whatever they sent.
 */
export async function addNote(ctx: ServiceContext, input: { membershipId: number; body: string }): Promise<MembershipNote> {
  const { membershipId } = parseInput(MembershipIdInput, input);
  const actor = requireUser(ctx);
  const sub = await ctx.db.subscription.findUnique({ where: { id: membershipId }, select: { id: true, businessId: true, status: true } });
  if (!sub || sub.status === "INCOMPLETE") throw new NotFoundError("Membership");
  await assertCan(ctx, sub.businessId, "writeMemberNotes");
  const { body } = parseInput(NoteBody, input);
  return ctx.db.$transaction(async (tx) => {
    const note = await tx.membershipNote.create({ data: { subscriptionId: sub.id, authorId: actor.user.id, body, createdAt: ctx.clock.now() } });
    await membershipEvent(ctx, tx, sub, {
      type: "membership.note_added.v1",
      payload: { noteId: note.id, membershipId: sub.id, businessId: sub.businessId, authorId: actor.user.id },
    });
    return note;
  });
}
