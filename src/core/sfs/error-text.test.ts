import { describe, expect, it } from 'vitest';
import { sfsTextInSentence } from './error-text.js';

describe('sfsTextInSentence', () => {
  it('drops the final full stop of an SFS reason so the sentence around it has one', () => {
    expect(sfsTextInSentence('IČO alebo IČ DPH nepatrí podnikateľovi (simulátor).')).toBe(
      'IČO alebo IČ DPH nepatrí podnikateľovi (simulátor)',
    );
    expect(sfsTextInSentence('Nesprávny PKP. ')).toBe('Nesprávny PKP');
    expect(sfsTextInSentence('no answer recorded')).toBe('no answer recorded');
  });
});
