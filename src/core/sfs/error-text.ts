/**
 * An SFS error text as a clause inside kasa's own sentence: the SFS's reasons end with a full stop
 * ("Nesprávny PKP.", the simulator's "… (simulátor)."), and kasa's message goes on after it, so the
 * text loses its final stop (and spaces) rather than print "..".
 */
export function sfsTextInSentence(text: string): string {
  return text.replace(/[\s.]+$/u, '');
}
