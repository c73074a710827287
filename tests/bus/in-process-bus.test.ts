import { expect, it } from 'vitest';
import { BusError } from '../../shared/bus/bus';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { runBusContract } from './bus.case';

runBusContract('in-process', async () => new InProcessBus());

it('a responder that unsubscribes before a request reaches it does not answer: nobody responds', async () => {
  const bus = new InProcessBus();
  const responder = bus.respond('bot.b1.cmd', () => 'answered for a bot it no longer runs');
  const asked = bus.request('bot.b1.cmd', {}).catch((e: unknown) => e);
  responder.unsubscribe();
  const error = await asked;
  expect(error).toBeInstanceOf(BusError);
  expect((error as BusError).failure).toBe('no-responders');
  await bus.close();
});
