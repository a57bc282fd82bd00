/**
 * Past forms of common English irregular verbs, mapped to the base form, so that a question's
 * "build" finds a text's "built" (Porter stemming only strips regular endings). Archaic forms
 * (spake, brake, slew) are included: old texts are common training material. Forms that are
 * mostly other words (left, ground, wound, rose, lay, fell) are not.
 */
const FORMS: Record<string, string> = Object.fromEntries(
  `arose:arise awoke:awake  borne:bear   became:become began:begin
  begun:begin bent:bend bit:bite bitten:bite bled:bleed blew:blow blown:blow brake:break
  broke:break broken:break bred:breed brought:bring built:build burnt:burn bought:buy caught:catch
  chose:choose chosen:choose clave:cleave came:come crept:creep dealt:deal dug:dig did:do done:do
  drew:draw drawn:draw dreamt:dream drank:drink drunk:drink drove:drive driven:drive ate:eat
  eaten:eat  fallen:fall fed:feed felt:feel fought:fight found:find fled:flee flew:fly
  flown:fly forbade:forbid forgot:forget forgotten:forget forgave:forgive forgiven:forgive
  forsook:forsake forsaken:forsake froze:freeze frozen:freeze got:get gotten:get gave:give
  given:give went:go gone:go  grew:grow grown:grow hung:hang heard:hear hid:hide
  hidden:hide held:hold kept:keep knelt:kneel knew:know known:know laid:lay led:lead leapt:leap
  learnt:learn  lent:lend    lost:lose made:make meant:mean
  met:meet paid:pay rode:ride ridden:ride rang:ring rung:ring  risen:rise ran:run
  said:say saw:see seen:see sought:seek sold:sell sent:send shook:shake shaken:shake shone:shine
  shot:shoot showed:show shown:show shrank:shrink sang:sing sung:sing sank:sink sunk:sink sat:sit
  slew:slay slain:slay slept:sleep slid:slide spake:speak spoke:speak spoken:speak spent:spend
  spun:spin spat:spit sprang:spring sprung:spring stood:stand stole:steal stolen:steal stuck:stick
  stung:sting strove:strive striven:strive struck:strike swore:swear sworn:swear swept:sweep
  swam:swim swum:swim took:take taken:take taught:teach tore:tear torn:tear told:tell
  thought:think threw:throw thrown:throw trod:tread trodden:tread understood:understand woke:wake
  woken:wake wore:wear worn:wear wove:weave woven:weave wept:weep won:win  wrote:write
  written:write`
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split(':') as [string, string]),
);

/** The base form of an irregular past form ("built" -> "build"); the word itself otherwise. */
export function baseForm(word: string): string {
  return FORMS[word] ?? word;
}
