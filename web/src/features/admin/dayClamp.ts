/** Spec §5: every day value of the subscription settings is clamped to 1–28 before each save. */
const MIN_DAY = 1;
const MAX_DAY = 28;

const DAY_CLAMP_FOOTER = "All day values must be between 1 and 28 to ensure they work in February.";

export interface DaySettings {
  boxReadyDay: number | null;
  billingDay: number | null;
  skipWindow: { startDay: number | null; endDay: number | null };
  changeWindow: { startDay: number | null; endDay: number | null };
}

export interface ClampedDays {
  boxReadyDay: number | null;
  billingDay: number;
  skipWindow: { startDay: number; endDay: number };
  changeWindow: { startDay: number; endDay: number };
}

function clampOne(field: string, value: number | null, messages: string[]): number {
  if (value === null || !Number.isFinite(value)) return MIN_DAY;
  const day = Math.round(value);
  if (day < MIN_DAY) {
    messages.push(`${field} must be at least 1`);
    return MIN_DAY;
  }
  if (day > MAX_DAY) {
    messages.push(`${field} cannot exceed 28 (to account for February)`);
    return MAX_DAY;
  }
  return day;
}

/** Clamps the days (box ready only when set; a missing value becomes 1) and lists what was adjusted. */
export function clampDays(days: DaySettings): { days: ClampedDays; messages: string[] } {
  const messages: string[] = [];
  const result: ClampedDays = {
    boxReadyDay: days.boxReadyDay === null ? null : clampOne("Box ready day", days.boxReadyDay, messages),
    billingDay: clampOne("Billing day", days.billingDay, messages),
    skipWindow: {
      startDay: clampOne("Skip window start day", days.skipWindow.startDay, messages),
      endDay: clampOne("Skip window end day", days.skipWindow.endDay, messages),
    },
    changeWindow: {
      startDay: clampOne("Change window start day", days.changeWindow.startDay, messages),
      endDay: clampOne("Change window end day", days.changeWindow.endDay, messages),
    },
  };
  return { days: result, messages };
}

/** The alert shown when anything was adjusted. */
export function dayClampAlert(messages: string[]): string {
  return `${messages.join("\n")}\n\n${DAY_CLAMP_FOOTER}`;
}
