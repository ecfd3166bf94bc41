import type { LearningSessionData } from "../shared/components/session-aside";

/** The dle-sessies editor's own data: the date its availability is told against (the server's, in UTC). */
export const learningSessionData = (): Promise<LearningSessionData> => Promise.resolve({ today: new Date().toISOString().slice(0, 10) });
