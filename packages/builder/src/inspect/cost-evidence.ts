/**
 * What counts as evidence in a handler's text, in each language's own spelling: a write (ORM,
 * query builder, SQL, a service named for a write), a call out (mail, SMS, queue, HTTP, events,
 * jobs) and a payment provider mutation — with the guards that keep ordinary code from passing
 * for one (`createHash(`, `Results.Created(`, `.add(` on a local Set). cost.ts decides what an
 * endpoint costs from them.
 */
export const WRITE = /\.(create|createMany|insert|insertOne|insertMany|save|update|updateOne|upsert|delete|deleteOne|destroy|remove|add|commit|bulkCreate|increment|decrement|persist|merge|updateMany|deleteMany|replaceOne|bulkWrite|findOneAndUpdate|findByIdAndUpdate|findOneAndDelete|findByIdAndDelete|findOneAndReplace)\s*\(|\b(INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b|\b(create|add|insert|save|register|submit|place|update|delete|remove|favorite|unfavorite|follow|unfollow|book|reserve)[A-Z_]\w*\s*\(/;
// Service-layer writes named noun first and verb last (`user_create(`, `order_item_delete(`, `get_or_create(`), the
// style of HackSoftware's Django styleguide. The verb must end the name; a name that asks, reads or prepares
// (`can_delete(`, `validate_create(`, `pre_save(`), names what comes before it (`qs_select_for_update(` locks rows),
// or computes a value (PHP's `date_create(`, `date_add(`) is no write.
const ASKING = String.raw`(?:can|should|is|has|needs?|must|may|will|get(?!_or_)|find|fetch|list|check|validate|build|prepare|render|format|serialize|parse|compute|calc|calculate|count|filter|search|select|load|read|show|preview|estimate|test|on|before|after|pre|post|for|allow|allowed|permit|last|latest|date|time|datetime|timezone)_`;
export const SERVICE_WRITE = new RegExp(String.raw`\b(?!${ASKING})[a-z][a-z0-9]*(?:_[a-z0-9]+)*(?<!_(?:for|before|after|on|pre|post|can|to))_(?:create|update|delete|remove|add|save|insert|upsert|destroy)\s*\(`);
// ActiveRecord persistence in a Rails action, called without parentheses or with a bang (`if @order.save`, `@order.destroy`,
// `Order.create!(…)`, `find_or_create_by!(…)`, `entries.destroy_by(id: ids)`, a model's `create_plaid_item!(…)`); `.saved_changes`
// and predicates are no call.
const RUBY_WRITE = /\.(?:save|create|update|destroy|delete|update_attributes?|update_columns?|update_all|delete_all|destroy_all|destroy_by|delete_by|insert_all|upsert_all|upsert|increment|decrement|toggle|touch|find_or_create_by|first_or_create|create_or_find_by)!?(?![\w?])|\.(?:create|update|destroy|delete|save|insert|upsert|add|remove)_\w+!(?![\w?])/;
// Inside a model or its concerns a write needs no receiver, `self` being the record or its class: `update!(revoked_at: …)`,
// a class method's `create!(…)` or `find_or_create_by!(…)`, `touch`, `increment!(:n)`, a has_one's `create_subscription!(…)`.
// Only there: in a controller a bare `create` or `update` is an action of its own. A bang name is always a call
// (`create!.token`); a plain one used as a value (`f(update)`, `update = …`, `update:`, `:update`) is none, and plain
// `increment`/`toggle` change the object, not its row.
const RUBY_SELF_WRITE = /(?<![\w.:@$])(?:(?:save|create|update|destroy|update_attributes?|update_columns?|update_all|delete_all|destroy_all|destroy_by|delete_by|insert|insert_all|upsert|upsert_all|find_or_create_by|first_or_create|create_or_find_by|increment|decrement|toggle|(?:create|update|destroy|delete|save|insert|upsert|add|remove)_\w+)!(?![\w?!:])|(?:save|create|update|destroy|update_attributes?|update_columns?|update_all|delete_all|destroy_all|destroy_by|delete_by|insert|insert_all|upsert|upsert_all|find_or_create_by|first_or_create|create_or_find_by|touch)(?![\w?!:])(?=\s*\(|[ \t]+[^\s=),\]}.|&*+<>-]|[ \t]*(?:$|;|&&|\|\|)))/m;
// A job or mail enqueued from a Rails action (`ChargeJob.perform_later(…)`, `Worker.perform_async(…)`, Rails' `sync_later`
// convention, `deliver_later`): a duplicate enqueues it twice.
const RUBY_EXTERNAL = /\.(?:\w+_later|perform_async|perform_in|perform_at|perform_bulk|deliver_now!?)(?![\w?])/;
// Eloquent and the query builder in a Laravel action (`$order->save()`, `Order::create([...])`,
// `DB::table('x')->insert(...)`, `$user->roles()->sync(...)`), or a service object named for a write
// (`(new CreateVault)->execute($data)`, Monica's convention).
const PHP_WRITE = /\bnew\s+\\?(?:\w+\\)*(?:Create|Update|Store|Destroy|Delete|Remove|Add|Attach|Detach|Assign|Toggle|Move|Import|Upload)[A-Z]\w*|(?:->|::)\s*(?:save|saveMany|saveQuietly|create|createMany|createOrFirst|firstOrCreate|updateOrCreate|update|updateOrInsert|upsert|insert|insertGetId|insertOrIgnore|delete|forceDelete|destroy|restore|increment|decrement|attach|detach|sync|syncWithoutDetaching|associate|dissociate|push|touch)\s*\(/;
// Work a Laravel action hands on: a queued job (`ChargeJob::dispatch(...)`, `dispatch(new X)`), an event
// its listeners act on, a notification or mail, an outbound HTTP call.
const PHP_EXTERNAL = /(?:::|->)\s*(?:dispatch|dispatchSync|dispatchAfterResponse|notify|notifyNow|queue|later)\s*\(|(?<![\w>:$])(?:dispatch|event)\s*\(\s*new\b|\bMail::to\b|\bNotification::send\s*\(|\bHttp::(?:\w+\([^)]*\)->)*(?:post|put|patch|delete)\s*\(/;

/**
 * Writes and calls out that a language spells its own way, beyond the shared patterns above; `self` is a
 * write without a receiver, read only in the files it names (a Rails model or concern).
 */
export const LANGUAGE_EFFECTS: ReadonlyArray<{ readonly file: RegExp; readonly write: RegExp; readonly external: RegExp; readonly self?: { readonly file: RegExp; readonly write: RegExp } }> = [
  { file: /\.rb$/, write: RUBY_WRITE, external: RUBY_EXTERNAL, self: { file: /(?:^|\/)app\/models\//, write: RUBY_SELF_WRITE } },
  { file: /\.php$/, write: PHP_WRITE, external: PHP_EXTERNAL },
];
/** Callees not followed for a write: a getter's or checker's internals (`get_mailbox()` making an SSL context) are no write of the handler. */
export const ASKING_NAME = new RegExp(`^${ASKING}`);
// A mail, SMS or notification client's send method (`emailProvider.sendPasswordReset(`, `smsClient.send(`), never `res.send(`;
// an auth provider's account calls that send mail or change the account there (Supabase `auth.signUp`, `auth.resetPasswordForEmail`).
export const EXTERNAL = /(?<![.\w])(send\w*|notify\w*|sendmail|send_mail|send_email)\s*\(|\b\w*(?:[mM]ail|[sS]ms|[nN]otif|[mM]essag|[pP]ush)\w*\.send\w*\s*\(|\.(sendMail|sendEmail|sendSms|sendMessage|sendNotification|send_message|send_mail|publish|enqueue|emit|delay|apply_async)\s*\(|\bfetch\s*\(|\b(axios|requests|httpx|got|ky)\.(post|put|patch|delete)\s*\(|\b\w*[qQ]ueue\.add\s*\(|\b(SendMessageCommand|PublishCommand|SendEmailCommand)\b|\bemails\.send\s*\(|\.auth\s*\.\s*(?:admin\s*\.\s*)?(?:signUp|resetPasswordForEmail|inviteUserByEmail|updateUser)\s*\(/;
/** State-changing calls on a payment provider's SDK that move no money: a duplicate still changes the account (`stripe.paymentMethods.attach`). */
export const PROVIDER_MUTATION = /\b\w*(?:stripe|adyen|paypal|braintree|gateway)\w*(?:\.\w+)*\.(?:create\w*|update\w*|del|delete\w*|attach|detach|confirm|capture|cancel|pay|void\w*|finalizeInvoice|sendInvoice|markUncollectible|refund\w*|reverse|resume|pause)\s*\(/i;
export const calleeExternal = (line: string): RegExpExecArray | null => EXTERNAL.exec(line) ?? PROVIDER_MUTATION.exec(line);
export const calleeWrite = (line: string): RegExpExecArray | null => WRITE.exec(line) ?? SERVICE_WRITE.exec(line);
// Java/Kotlin, C# and Go name their persistence calls in PascalCase as often as in camelCase: GORM `db.Create(&x)`,
// `tx.Model(&a).Updates(…)`, EF `SaveChangesAsync()`, `ExecuteUpdateAsync(…)`, Spring Data `saveAll(`. Exact method
// names only: `Results.Created(`, `CreatedAtAction(`, `TypedResults.Ok(` or an `UpdateRequest` type are no write.
const TYPED_WRITE_API = /\.(create|createMany|insert|insertOne|insertMany|save|saveAll|saveAndFlush|update|updateOne|upsert|delete|deleteOne|deleteById|deleteAll|destroy|commit|bulkCreate|increment|decrement|persist|merge|updateMany|deleteMany|replaceOne|bulkWrite|Create|CreateAsync|CreateMany|Insert|InsertAsync|InsertOne|InsertOneAsync|InsertMany|InsertManyAsync|Save|SaveAsync|SaveChanges|SaveChangesAsync|Update|UpdateAsync|Updates|UpdateColumn|UpdateColumns|UpdateOne|UpdateOneAsync|UpdateMany|UpdateManyAsync|Upsert|UpsertAsync|Delete|DeleteAsync|DeleteOne|DeleteOneAsync|DeleteMany|DeleteManyAsync|ReplaceOne|ReplaceOneAsync|FirstOrCreate|Exec|ExecContext|ExecuteNonQuery|ExecuteNonQueryAsync|ExecuteUpdate|ExecuteUpdateAsync|ExecuteDelete|ExecuteDeleteAsync|Commit|CommitAsync|Persist|Destroy|BulkInsert|BulkInsertAsync)\s*(?:<[^<>()]*>)?\s*\(/g;
const SQL_WRITE = /\b(INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b/g;
// `Add`/`Remove` are a write only on a database, context, repository or store (`_db.Orders.Add(o)`, `context.Articles.AddAsync(`):
// on a local `List<T>` (`lines.add(x)`) or a header collection (`HttpContext.Response.Headers.Add(`) they change nothing stored.
const PERSISTENCE_COLLECTION = /\b_?(?:db|\w*Db|\w*DB|\w*[cC]ontext|tx|\w*[rR]epo|\w*[rR]epository|\w*[sS]tore|session|\w*Session|\w*[dD]ao|entityManager|em|uow|unitOfWork)(?:\s*\.\s*\w+(?:<[^<>()]*>)?(?:\(\))?)*\s*\.\s*(?:add|Add|AddAsync|AddRange|AddRangeAsync|remove|Remove|RemoveRange|Attach|attach)\s*\(/g;
const NOT_PERSISTENCE = /\.(Headers|Cookies|Items|Features|Claims|Response|Request|ModelState|Errors|Properties|Metadata|Values)\b/;
// A call named for a write (`createArticle(`, `CreateUserAsync(`, `SaveOne(`), not a constructor (`new CreateUserCommand(`).
const NAMED_WRITE = /(?<!\bnew\s+(?:\w+\.)*)\b(?:create|add|insert|save|register|submit|place|update|delete|remove|favorite|unfavorite|follow|unfollow|book|reserve|Create|Add|Insert|Save|Register|Submit|Place|Update|Delete|Remove|Favorite|Unfavorite|Follow|Unfollow|Book|Reserve)[A-Z_]\w*\s*\(/g;
// Framework and library calls whose names start with a write verb but store nothing: Spring's `model.addAttribute(`,
// `response.addHeader(`, ASP.NET's `ModelState.AddModelError(`, `services.AddScoped(`, `loggerFactory.CreateLogger(`, Go's `t.AddDate(`.
const NOT_A_WRITE_NAME = /^(?:[aA]dd(?:All|Attribute|Attributes|AllAttributes|FlashAttribute|Header|Headers|Cookie|Object|Error|Errors|ModelError|Listener|EventListener|Handler|Interceptor|Filter|Claim|Claims|Param|Parameter|Parameters|WithValue|Date|Days|Hours|Minutes|Seconds|Months|Years|Milliseconds|Ticks|Scoped|Singleton|Transient|Controllers|Service|Services|DbContext|Authentication|Authorization|Cors|Swagger\w*|Mvc|Json|Policy|Range|RangeAsync)|[cC]reate(?:Logger|Scope|Client|Builder|Response|ErrorResponse|Map|Instance|Command|Connection|Channel|Token|Jwt\w*|Hash|Claims\w*|Default\w*|Http\w*|Problem\w*|Validation\w*|Link|Url|Uri|Query\w*|Host\w*|Slug|Cursor|Protector|Request|Message|Signature|Text|Reader|Writer|Stream|Timer|Task|Context|Mapper|Dto)|[rR]egister(?:Routes?|Services?|Handlers?|Type\w*|Module\w*|Validator\w*))$/;
// HTTP clients, message brokers and mail senders of these languages (`client.PostAsJsonAsync(`, `kafkaTemplate.send(`,
// `rabbitTemplate.convertAndSend(`, Go's `http.Post(`); MediatR's in-process `_mediator.Publish(` is none of them.
const TYPED_EXTERNAL = /(?<![mM]ediator)\.(PostAsJsonAsync|PutAsJsonAsync|PatchAsJsonAsync|PostAsync|PutAsync|PatchAsync|SendAsync|convertAndSend|postForObject|postForEntity|postForLocation|Produce|ProduceAsync|WriteMessages|Publish|PublishAsync|SendMessage\w*|SendEmail\w*|SendMail\w*|SendSms\w*|SendNotification\w*|Notify\w*)\s*\(|\bhttp\.(?:Post|PostForm)\s*\(|\b\w*(?:[kK]afka\w*|[pP]roducer|[tT]emplate|[mM]ail\w*|[sS]ms\w*|[nN]otif\w*|[mM]essag\w*|[bB]us|[qQ]ueue\w*)\.(?:send|Send)\w*\s*\(|\b\w*[cC]lient\.Do\s*\(|\b\w*[rR]estTemplate\.(?:exchange|put|delete|patchForObject)\s*\(|\b\w*[wW]ebClient\.(?:post|put|patch|delete)\s*\(|(?<![.\w])(?:Send|Notify)[A-Z]\w*\s*\(/;

/** The first match of any of `patterns` (global) in `text` that `accept` takes. */
function firstAccepted(text: string, patterns: readonly RegExp[], accept: (match: RegExpExecArray) => boolean): RegExpExecArray | null {
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) if (accept(match as RegExpExecArray)) return match as RegExpExecArray;
  }
  return null;
}
const calledName = (match: RegExpExecArray): string => /(\w+)\s*(?:<[^<>()]*>)?\s*\($/.exec(match[0])?.[1] ?? '';

/**
 * A write in Java/Kotlin, C# or Go code: a persistence API call first, then a call named for a write unless
 * `cleared` says the repository's own code of that name was read (its own lines are the evidence then).
 * @example typedWrite('db.Create(&user)', () => false)?.[0] // '.Create('
 */
export function typedWrite(text: string, cleared: (name: string) => boolean): RegExpExecArray | null {
  return firstAccepted(text, [TYPED_WRITE_API, SQL_WRITE, PERSISTENCE_COLLECTION], (m) => !NOT_PERSISTENCE.test(m[0]))
    ?? firstAccepted(text, [NAMED_WRITE], (m) => !NOT_A_WRITE_NAME.test(calledName(m)) && !cleared(calledName(m)));
}
export const typedExternal = (text: string): RegExpExecArray | null => EXTERNAL.exec(text) ?? TYPED_EXTERNAL.exec(text) ?? PROVIDER_MUTATION.exec(text);

const WRITE_ALL = new RegExp(WRITE.source, 'g');
const SERVICE_WRITE_ALL = new RegExp(SERVICE_WRITE.source, 'g');
// Packages whose calls store something: database drivers, ORMs, hosted databases and key-value stores. A write-named
// call on any other package's binding computes a value (`crypto.createHash(`, `createClient(` of an HTTP library).
const DATABASE_PACKAGE = /prisma|mongo|mongoose|typegoose|sequelize|typeorm|drizzle|knex|kysely|objection|bookshelf|mikro-orm|^pg$|^pg-|postgres|mysql|mariadb|sqlite|better-sqlite|redis|keyv|firebase|firestore|supabase|dynamo|@aws-sdk\/client-dynamodb|aws-sdk|faunadb|cassandra|couchbase|neo4j|elastic|planetscale|@neondatabase|@vercel\/(?:postgres|kv)|@upstash|convex|appwrite|pocketbase|airtable|@notionhq|lowdb|nedb|pouchdb|orm|database|\bdb\b/i;
/** `crypto` of `crypto.createHash(` (text before the match ending in `crypto.`), or undefined for a bare call. */
const receiverRoot = (before: string): string | undefined => /([\w$]+)(?:\s*\??\.\s*[\w$]+(?:\([^()]*\))?)*\s*\??\.\s*$/.exec(before)?.[1];
/**
 * Whether `receiver` is a collection the same function builds in memory (`const seen = new Set()`, `const rows = []`):
 * its `.add(`/`.delete(` changes nothing stored. Only declarations in that function's own text decide it.
 */
function localCollection(text: string, receiver: string): boolean {
  const name = receiver.replace(/\$/g, '\\$');
  return new RegExp(`\\b(?:const|let|var)\\s+${name}\\s*(?::[^=;]+)?=\\s*(?:new\\s+(?:Set|Map|WeakSet|WeakMap|Array)\\b|\\[)`).test(text);
}

/** What a JS/TS write probe needs beyond the text: callees whose own code was read, and where a name is imported from. */
interface JsWriteContext {
  /** A call named for a write whose own code in the repository was read: its own lines are the evidence, not its name. */
  readonly cleared: (name: string) => boolean;
  /** The package a local name is imported from, or undefined for the project's own names. */
  readonly packageOf: (local: string) => string | undefined;
}

/**
 * A write in JS/TS code: an ORM or SQL call, or a call named for a write — except `.add(`/`.delete(` on a
 * collection the function builds itself, a write-named call whose code the repository shows doing no write, and a
 * write-named call on a package that stores nothing (`crypto.createHash(`).
 * @example jsWrite('const seen = new Set();\nseen.add(id);', { cleared: () => false, packageOf: () => undefined }) // null
 */
export function jsWrite(text: string, ctx: JsWriteContext): RegExpExecArray | null {
  return firstAccepted(text, [WRITE_ALL, SERVICE_WRITE_ALL], (m) => {
    const before = text.slice(0, m.index);
    const stores = (local: string | undefined): boolean => {
      const pkg = local === undefined ? undefined : ctx.packageOf(local);
      return pkg === undefined || DATABASE_PACKAGE.test(pkg);
    };
    if (m[0].startsWith('.')) {
      const receiver = /([\w$]+)\s*\??$/.exec(before)?.[1];
      if (/^\.(?:add|delete|remove)\s*\($/.test(m[0]) && receiver !== undefined && localCollection(text, receiver)) return false;
      // `crypto.createHash('sha256').update(buf)`: a chain on a package that stores nothing.
      return stores(receiverRoot(before + m[0].slice(0, 1)));
    }
    const name = calledName(m);
    if (!name) return true;
    if (ctx.cleared(name)) return false;
    return stores(receiverRoot(before) ?? name);
  });
}
// Twilio's `client.messages.create(…)` sends an SMS: a message out, not a stored record.
const TWILIO_SMS = /\b[\w$]+(?:\.[\w$]+)*\.messages\.create\s*\(/;
const TWILIO_PACKAGE = /(?:require\s*\(|from)\s*['"]twilio['"]/;
const EXTERNAL_ALL = new RegExp(EXTERNAL.source, 'g');
const PROVIDER_MUTATION_ALL = new RegExp(PROVIDER_MUTATION.source, 'gi');
// An in-process event emitter (`this.eventEmitter.emit(PortfolioChangedEvent…)`, NestJS's EventEmitter2) calls
// listeners of the same process, like MediatR's `Publish`: no message leaves it.
const IN_PROCESS_EMIT = /(?:[eE]vent[eE]mitter\w*|[eE]mitter)\s*$/;
/** A message or outbound call in JS/TS code of a file whose text is `fileText`. */
export function jsExternal(text: string, fileText: string): RegExpExecArray | null {
  const patterns = TWILIO_PACKAGE.test(fileText) ? [EXTERNAL_ALL, PROVIDER_MUTATION_ALL, new RegExp(TWILIO_SMS.source, 'g')] : [EXTERNAL_ALL, PROVIDER_MUTATION_ALL];
  return firstAccepted(text, patterns, (m) => !(/^\.emit\s*\($/.test(m[0]) && IN_PROCESS_EMIT.test(text.slice(Math.max(0, m.index - 60), m.index))));
}
