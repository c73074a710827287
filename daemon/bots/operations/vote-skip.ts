/**
 * A vote to skip the song (`!skip` in the bot's channel, POST /api/player/{botId}/vote-skip from the
 * web): when the votes reach `voteSkipRatio` of the people who can vote, the bot skips as `next` does.
 * A voice-server voter must be in the bot's channel: a private message from elsewhere is no vote.
 */
import type { BotOpArgs, BotOpData } from '../../../shared/bus/bot-ops';
import type { BotReply } from '../../../shared/bus/messages';
import { type Phrase, say } from '../../../shared/i18n/phrases';
import type { BotContext } from '../bot-context';
import { next } from './player-ops';
import { done, refused } from './reply-builders';

export async function voteSkip(
  ctx: BotContext,
  args: BotOpArgs<'voteSkip'>,
): Promise<BotReply<BotOpData<'voteSkip'>>> {
  const play = ctx.player.nowPlaying;
  if (!play) return refused(409, say.nothingPlaying());
  const people = ctx.channelPeople();
  if (args.voter.kind === 'channel' && !people.includes(args.voter.id))
    return refused(403, say.skipVoteNotInChannel());
  const counted = ctx.skipVotes.cast(play, args.voter);
  const { votes, needed } = ctx.skipVotes.tally(play, people.length, ctx.settings.voteSkipRatio);
  if (votes < needed) {
    ctx.changed(false);
    const message = counted ? say.skipVotes(votes, needed) : say.skipVoteRepeated(votes, needed);
    return done(message, { votes, needed, skipped: false });
  }
  const skipped = await next(ctx);
  // `next` said its phrases through the builders, so they are Phrases; the reply type only widens them.
  const phrases = [say.skipVotesPassed(votes, needed), ...((skipped.phrases ?? []) as Phrase[])];
  return { ...done(phrases, { votes, needed, skipped: true }), ok: skipped.ok, status: skipped.status };
}
