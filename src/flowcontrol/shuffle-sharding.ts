/**
 * Shuffle sharding: each flow is dealt a hand of `handSize` distinct queues out of `deckSize`,
 * decided by a hash of its flow schema and distinguisher. Two flows rarely get the same hand, so a
 * noisy flow fills its own queues and a quiet one almost always has a queue the noisy one does
 * not touch. The hash and the dealing follow Kubernetes' (SHA-256, the first 8 bytes little-endian;
 * mixed-radix digits of the hash, each lifted past the cards already dealt), so a flow lands on the
 * same queue indexes as it would there. Pure.
 */
import { createHash } from 'node:crypto';

/** The 64-bit hash of a flow: its schema's name and its distinguisher, separated by a NUL byte. */
export function hashFlow(flowSchema: string, distinguisher: string): bigint {
  const digest = createHash('sha256').update(flowSchema).update(Buffer.of(0)).update(distinguisher).digest();
  return digest.readBigUInt64LE(0);
}

/**
 * The hand of `hash`: `handSize` distinct queue indexes in [0, deckSize). Throws a RangeError when
 * the hand cannot be dealt (validation keeps stored levels from that).
 */
export function dealHand(hash: bigint, deckSize: number, handSize: number): number[] {
  if (!(deckSize >= 1 && handSize >= 1 && handSize <= deckSize)) throw new RangeError(`cannot deal ${handSize} cards from a deck of ${deckSize}`);
  const digits: number[] = [];
  let rest = hash;
  for (let i = 0; i < handSize; i++) {
    const radix = BigInt(deckSize - i);
    digits.push(Number(rest % radix));
    rest /= radix;
  }
  // Digit i chooses among the deckSize-i cards left: step over each card dealt before it.
  const hand: number[] = [];
  for (let i = 0; i < handSize; i++) {
    let card = digits[i] as number;
    for (let j = i; j > 0; j--) if (card >= (digits[j - 1] as number)) card++;
    hand.push(card);
  }
  return hand;
}
