// Recorded load milestone events: kept in memory, and appended as JSON lines to --data FILE
// when given (loaded again on the next start).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export type RecordedEvent = {
  load_id: string;
  milestone_type: string;
  event_time: string;
  received_at: string;
  client_id: string;
};

export class EventStore {
  private readonly events: RecordedEvent[] = [];

  constructor(private readonly dataFile?: string) {
    if (dataFile && existsSync(dataFile)) {
      readFileSync(dataFile, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .forEach((line, index) => {
          try {
            this.events.push(JSON.parse(line) as RecordedEvent);
          } catch {
            throw new Error(`--data ${dataFile}: line ${index + 1} is not JSON`);
          }
        });
    }
  }

  record(event: RecordedEvent): void {
    this.events.push(event);
    if (this.dataFile) appendFileSync(this.dataFile, `${JSON.stringify(event)}\n`);
  }

  list(): readonly RecordedEvent[] {
    return this.events;
  }
}
