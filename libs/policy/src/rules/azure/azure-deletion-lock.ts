import { stackRule } from '../define';
import { read } from '../inputs';
import { attachedTo, idPatternOf, isAnyAzureType, T } from './support';

export const azureDeletionLock = stackRule({
  name: 'azure-deletion-lock',
  description:
    'Every protected storage account and key vault (protect: the prod default) carries a CanNotDelete management lock, which the deploy identity can create but not remove, so neither CI nor a portal click deletes checkpoints or their key outside Pulumi',
  source:
    'Checkpoint security baseline (deletion guards outside Pulumi); Microsoft Learn: Lock your resources to protect your infrastructure; Azure Verified Modules storage account (lock parameter)',
  validate: (args, report) => {
    const locks = args.resources.filter(
      (r) => isAnyAzureType(r.type, [T.lock]) && read(r.props, 'level') === 'CanNotDelete',
    );
    for (const holder of args.resources.filter((r) => isAnyAzureType(r.type, [T.storageAccount, T.vault]))) {
      if (!holder.opts.protect) continue;
      const idPattern = idPatternOf(holder);
      if (locks.some((lock) => attachedTo(lock, 'scope', holder, idPattern))) continue;
      report(
        `${holder.type.split(':').pop()} '${holder.name}' is protected but has no CanNotDelete lock; expected a ManagementLockByScope with level CanNotDelete on it`,
        holder.urn,
      );
    }
  },
});
