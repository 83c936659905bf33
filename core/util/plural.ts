/** `1 change`, `3 changes`: a count with its noun, so every surface counts things in the same words. */
export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;
