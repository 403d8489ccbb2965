/** Staff's internal notes on a membership (the member page): the longest a note may be, in characters, after trimming. */
export const MEMBER_NOTE_MAX_CHARS = 2000;
