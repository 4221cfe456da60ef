// Mantine's green 9 leaves white text under 4.5:1; this green keeps it above 6:1 in both themes
export const passGreen = '#1b6b2e';

/** The spec's score colours (part 2 §9, headers analyser and TLS tester): at least 80 green, at least 60 yellow, else red. */
export function scoreBand(score: number): { colour: string; text: string; word: string } {
  if (score >= 80) return { colour: passGreen, text: 'white', word: 'good' };
  if (score >= 60) return { colour: 'yellow.4', text: 'black', word: 'fair' };
  return { colour: 'red.9', text: 'white', word: 'poor' };
}
